import type { operations } from "../../../generated/types/openai.js";
import { isModelAllowed } from "../../auth/is-model-allowed.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { resolveCallModel } from "../../relay/resolve-call-model.js";
import { findContinuationTarget } from "../../relay/response-routes.js";
import { readConversationKey } from "../../relay/read-conversation-key.js";
import { runRelay } from "../../relay/run-relay.js";
import { readResponseContinuations } from "./read-response-continuations.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../../users/authenticated-request.js";
import { resolveRoutingToken } from "../../relay/resolve-routing-token.js";

type TextOperationId = "listModels" | "createChatCompletion" | "createResponse" | "createEmbedding";

/** OpenAI-style text operations: typed body → relay call (routing, reservation, attempts, settlement). */
export function createTextHandlers(context: GatewayContext): Record<TextOperationId, OperationHandler> {
  return {
    listModels(_request, response) {
      const token = getAuthenticatedToken(response);
      const models = context.channelRouter
        .listModels(resolveRoutingToken(response, token, context.config), getAuthenticatedUserGroup(response))
        .filter((model) => isModelAllowed(token, model));
      const created = context.now();
      response.json({
        object: "list",
        data: models.map((id) => ({ id, object: "model", created, owned_by: "gateway" })),
      });
    },
    async createChatCompletion(request, response) {
      const body = request.body as JsonRequestBody<operations["createChatCompletion"]>;
      // A gmx- thinking suffix routes and is priced by the base model; it rides on to the channel's mapped name.
      const resolvedModel = resolveCallModel(context, response, body.model, "native-family");
      await runRelay(context, request, response, {
        capability: "chat",
        input: body,
        model: body.model,
        resolvedModel,
        ...(resolvedModel.suffix !== "" ? { upstreamModelSuffix: resolvedModel.suffix } : {}),
        conversationKey: readConversationKey(request, body.prompt_cache_key),
        isStream: body.stream === true,
        promptTokenEstimate: estimatePromptTokens(body),
        maxOutputTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
      });
    },
    async createResponse(request, response) {
      const body = request.body as JsonRequestBody<operations["createResponse"]>;
      // As for chat: a gmx- thinking suffix routes and is priced by the base model and rides on to the channel.
      const resolvedModel = resolveCallModel(context, response, body.model, "native-family");
      // A continuation goes to the upstream account that holds what it continues.
      const continuationTarget = await findContinuationTarget(context, readResponseContinuations(body));
      await runRelay(context, request, response, {
        capability: "responses",
        ...(continuationTarget ? { continuationTarget } : {}),
        input: body,
        model: body.model,
        resolvedModel,
        ...(resolvedModel.suffix !== "" ? { upstreamModelSuffix: resolvedModel.suffix } : {}),
        conversationKey: readConversationKey(request, body.prompt_cache_key),
        isStream: body.stream === true,
        promptTokenEstimate: estimatePromptTokens(body),
        maxOutputTokens: body.max_output_tokens ?? undefined,
      });
    },
    async createEmbedding(request, response) {
      const body = request.body as JsonRequestBody<operations["createEmbedding"]>;
      await runRelay(context, request, response, {
        capability: "embeddings",
        input: body,
        model: body.model,
        isStream: false,
        promptTokenEstimate: estimatePromptTokens(body),
        maxOutputTokens: 0,
      });
    },
  };
}
