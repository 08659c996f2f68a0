import type { Request, Response } from "express";
import { readRequestIds } from "../../http/read-request-ids.js";
import { ClientGoneSignal } from "../../relay/client-gone-signal.js";
import type { components, operations } from "../../../generated/types/native.js";
import { assertModelAllowed } from "../../auth/assert-model-allowed.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";
import type { RoutingToken } from "../../channels/channel-router.js";
import { NoAvailableChannelError } from "../../errors/no-available-channel-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { applyNativeThinkingSuffix } from "../../providers/native/apply-native-thinking-suffix.js";
import { assertNativeSpeechRules } from "../../providers/native/assert-native-speech-rules.js";
import { buildNativeModelsPage } from "../../providers/native/build-native-models-page.js";
import { countNativeEmbeddingTokens } from "../../providers/native/count-native-embedding-tokens.js";
import { relayNativeEmbed } from "../../providers/native/relay-native-embed.js";
import { relayNativeGenerate } from "../../providers/native/relay-native-generate.js";
import { relayNativeVoices } from "../../providers/native/relay-native-voices.js";
import { stripModelsPrefix } from "../../providers/native/strip-models-prefix.js";
import { runRelay } from "../../relay/run-relay.js";
import type { TokenRecord } from "../../store/tokens/token-record.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../../users/authenticated-request.js";

type GenerateContentRequest = components["schemas"]["GenerateContentRequest"];
type EmbedContentRequest = components["schemas"]["EmbedContentRequest"];
type BatchEmbedContentsRequest = components["schemas"]["BatchEmbedContentsRequest"];

/**
 * The native generation's operations. The `/v1/models/{model}:…` operations (newer SDKs) share the `/v1beta`
 * handlers. Generation and embeddings go through the relay (native channels only); voices and the model list are
 * routed the same way but never billed.
 */
export function createNativeOperationHandlers(context: GatewayContext): Record<keyof operations, OperationHandler> {
  const routingOf = (response: Response): { token: TokenRecord; routing: RoutingToken; userGroup: string } => {
    const token = getAuthenticatedToken(response);
    return {
      token,
      routing: { group: token.group, crossGroupRetry: token.crossGroupRetry },
      userGroup: getAuthenticatedUserGroup(response),
    };
  };

  const generate = (streaming: boolean): OperationHandler =>
    async function generateContent(request: Request, response: Response) {
      const model = stripModelsPrefix(readPathParameter(request, "model"));
      const mode = !streaming ? "json" : request.query.alt === "sse" ? "sse" : "json-array";
      const { routing, userGroup } = routingOf(response);
      // Only a name with a thinking suffix asks this, so the model list is built only then.
      const resolved = applyNativeThinkingSuffix(model, request.body as GenerateContentRequest, {
        stream: streaming,
        isServed: (name) => context.channelRouter.listModels(routing, userGroup).includes(name),
      });
      if (resolved.warnings.length > 0)
        context.logger.debug(
          { requestId: readRequestIds(request).requestId, model, warnings: resolved.warnings },
          "thinking suffix adjusted",
        );
      assertNativeSpeechRules(resolved.routingModel, resolved.request);
      const promptTokenEstimate = estimatePromptTokens(resolved.request);
      await runRelay(context, request, response, {
        model,
        ...(resolved.routingModel !== model ? { routingModel: resolved.routingModel } : {}),
        isStream: streaming,
        promptTokenEstimate,
        maxOutputTokens: resolved.request.generationConfig?.maxOutputTokens ?? undefined,
        channelTypes: ["native"],
        execute: (input) =>
          relayNativeGenerate({ request: resolved.request, mode, promptTokenEstimate }, response, input),
      });
    };

  // The path's model decides: a `model` inside the body (the native SDK repeats `models/<id>` in every batch
  // request) is rewritten to the channel's mapped model by relayNativeEmbed rather than refused.
  const embed = (method: "embedContent" | "batchEmbedContents"): OperationHandler =>
    async function embedContent(request: Request, response: Response) {
      const model = stripModelsPrefix(readPathParameter(request, "model"));
      const body = request.body as EmbedContentRequest | BatchEmbedContentsRequest;
      const promptTokens = countNativeEmbeddingTokens(body);
      await runRelay(context, request, response, {
        model,
        isStream: false,
        promptTokenEstimate: promptTokens,
        maxOutputTokens: 0,
        channelTypes: ["native"],
        execute: (input) =>
          relayNativeEmbed(
            method === "embedContent"
              ? { method, request: body as EmbedContentRequest, promptTokens }
              : { method, request: body as BatchEmbedContentsRequest, promptTokens },
            response,
            input,
          ),
      });
    };

  const generateContent = generate(false);
  const streamGenerateContent = generate(true);
  const embedContent = embed("embedContent");
  const batchEmbedContents = embed("batchEmbedContents");

  return {
    listNativeModels(request, response) {
      const { token, routing, userGroup } = routingOf(response);
      const query = request.query as QueryParameters<operations["listNativeModels"]>;
      const models = context.channelRouter
        .listModels(routing, userGroup)
        .filter((model) => isModelAllowed(token, model));
      response.json(
        buildNativeModelsPage(models, { pageSize: toOptionalNumber(query.pageSize), pageToken: query.pageToken }),
      );
    },
    generateContent,
    streamGenerateContent,
    embedContent,
    batchEmbedContents,
    generateContentV1: generateContent,
    streamGenerateContentV1: streamGenerateContent,
    embedContentV1: embedContent,
    batchEmbedContentsV1: batchEmbedContents,
    async listVoices(request, response) {
      const query = request.query as unknown as QueryParameters<operations["listVoices"]>;
      const { token, routing, userGroup } = routingOf(response);
      const model = stripModelsPrefix(query.model);
      assertModelAllowed(token, model);
      const attempts = context.channelRouter
        .planAttempts(model, routing, userGroup, context.config.relay.maxAttempts)
        .filter((attempt) => attempt.channel.type === "native");
      if (attempts.length === 0) throw new NoAvailableChannelError(model);
      // The voice list goes upstream but bills nothing: it counts as a request, and as no tokens once answered.
      const countedTokens = token.rpmLimit > 0 || token.tpmLimit > 0 ? await context.rateLimiter.admit(token, 0) : 0;
      if (countedTokens > 0) context.rateLimiter.correct(token, countedTokens, 0);
      const clientGone = new ClientGoneSignal();
      const onClientGone = () => clientGone.abort(new Error("client disconnected"));
      response.once("close", onClientGone);
      try {
        const page = await relayNativeVoices({
          query: { ...query, model, page_size: toOptionalNumber(query.page_size) },
          attempts,
          signal: clientGone,
          onFailure: (attempt) => context.channelRouter.reportFailure(attempt.channel.id),
          onSuccess: (attempt) => context.channelRouter.reportSuccess(attempt.channel.id),
        });
        response.json(page);
      } finally {
        response.off("close", onClientGone);
      }
    },
  };
}

/** The same rule as assertModelAllowed, as a filter. */
function isModelAllowed(token: TokenRecord, model: string): boolean {
  if (!token.modelLimitsEnabled) return true;
  return token.modelLimits.split(",").some((name) => name.trim() === model);
}

/** The validator coerces query integers; a raw string still counts when it is one. */
function toOptionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}
