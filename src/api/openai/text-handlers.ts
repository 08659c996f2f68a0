import type { operations } from "../../../generated/types/openai.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import type { ChatToNativeResult } from "../../providers/native/convert-chat-request-to-native.js";
import { createNativeMediaFetcher } from "../../providers/native/create-native-media-fetcher.js";
import { relayNativeChat } from "../../providers/native/relay-native-chat.js";
import { relayNativeEmbeddings } from "../../providers/native/relay-native-embeddings.js";
import { splitRoutingModel } from "../../providers/native/split-routing-model.js";
import { relayOpenaiChat } from "../../providers/openai/relay-openai-chat.js";
import { relayOpenaiEmbeddings } from "../../providers/openai/relay-openai-embeddings.js";
import { relayOpenaiResponses } from "../../providers/openai/relay-openai-responses.js";
import { runRelay, type RelayAttemptInput } from "../../relay/run-relay.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../../users/authenticated-request.js";

type TextOperationId = "listModels" | "createChatCompletion" | "createResponse" | "createEmbedding";

/** OpenAI-style text operations: typed body → relay call (routing, reservation, attempts, settlement). */
export function createTextHandlers(context: GatewayContext): Record<TextOperationId, OperationHandler> {
  // One downloader for the gateway's life: it owns the connection pool media URLs are fetched through.
  const fetchMedia = createNativeMediaFetcher(context.config.fetchAllowPrivate);
  return {
    listModels(_request, response) {
      const token = getAuthenticatedToken(response);
      const allowed = token.modelLimitsEnabled
        ? new Set(token.modelLimits.split(",").map((model) => model.trim()))
        : undefined;
      const models = context.channelRouter
        .listModels({ group: token.group, crossGroupRetry: token.crossGroupRetry }, getAuthenticatedUserGroup(response))
        .filter((model) => !allowed || allowed.has(model));
      const created = context.now();
      response.json({
        object: "list",
        data: models.map((id) => ({ id, object: "model", created, owned_by: "gateway" })),
      });
    },
    async createChatCompletion(request, response) {
      const body = request.body as JsonRequestBody<operations["createChatCompletion"]>;
      // gmx- thinking suffixes route by the base model; the suffix rides on to the channel's mapped name.
      const routing = splitRoutingModel(body.model);
      const translations = new Map<string, Promise<ChatToNativeResult>>();
      await runRelay(context, request, response, {
        model: body.model,
        ...(routing ? { routingModel: routing.routingModel } : {}),
        isStream: body.stream === true,
        promptTokenEstimate: estimatePromptTokens(body),
        maxOutputTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
        channelTypes: ["openai", "native"],
        execute: (input) => {
          const attemptInput = routing
            ? withUpstreamModel(input, `${input.attempt.upstreamModel}${routing.suffix}`)
            : input;
          switch (input.attempt.channel.type) {
            case "native":
              return relayNativeChat(body, response, attemptInput, {
                safetySettings: context.config.nativeSafetySettings,
                fetchMedia,
                logger: context.logger,
                now: () => context.now(),
                translations,
              });
            case "openai":
              return relayOpenaiChat(body, response, attemptInput);
          }
        },
      });
    },
    async createResponse(request, response) {
      const body = request.body as JsonRequestBody<operations["createResponse"]>;
      await runRelay(context, request, response, {
        model: body.model,
        isStream: body.stream === true,
        promptTokenEstimate: estimatePromptTokens(body),
        maxOutputTokens: body.max_output_tokens ?? undefined,
        channelTypes: ["openai"],
        execute: (input) => relayOpenaiResponses(body, response, input),
      });
    },
    async createEmbedding(request, response) {
      const body = request.body as JsonRequestBody<operations["createEmbedding"]>;
      await runRelay(context, request, response, {
        model: body.model,
        isStream: false,
        promptTokenEstimate: estimatePromptTokens(body),
        maxOutputTokens: 0,
        channelTypes: ["openai", "native"],
        execute: (input) => {
          switch (input.attempt.channel.type) {
            case "native":
              return relayNativeEmbeddings(body, input);
            case "openai":
              return relayOpenaiEmbeddings(body, response, input);
          }
        },
      });
    },
  };
}

/** The same attempt with another upstream model name (the relay keeps its own copy of the attempt for routing). */
function withUpstreamModel(input: RelayAttemptInput, upstreamModel: string): RelayAttemptInput {
  return { ...input, attempt: { ...input.attempt, upstreamModel } };
}
