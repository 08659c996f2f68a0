import type { Request, Response } from "express";
import { readRequestIds } from "../../http/read-request-ids.js";
import type { components, operations } from "../../../generated/types/native.js";
import { isModelAllowed } from "../../auth/is-model-allowed.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";
import type { RoutingToken } from "../../channels/channel-router.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { applyNativeThinkingSuffix } from "../../providers/native/apply-native-thinking-suffix.js";
import { assertNativeSpeechRules } from "../../providers/native/assert-native-speech-rules.js";
import { buildNativeModelsPage } from "../../providers/native/build-native-models-page.js";
import { countNativeEmbeddingTokens } from "../../providers/native/count-native-embedding-tokens.js";
import { stripModelsPrefix } from "../../providers/native/strip-models-prefix.js";
import { runRelay } from "../../relay/run-relay.js";
import { runUnbilledRelay } from "../../relay/run-unbilled-relay.js";
import type { TokenRecord } from "../../store/tokens/token-record.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../../users/authenticated-request.js";
import { resolveRoutingToken } from "../../relay/resolve-routing-token.js";

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
      routing: resolveRoutingToken(response, token, context.config),
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
        capability: "nativeGeneration",
        input: { request: resolved.request, mode, promptTokenEstimate },
        model,
        ...(resolved.routingModel !== model ? { routingModel: resolved.routingModel } : {}),
        isStream: streaming,
        promptTokenEstimate,
        maxOutputTokens: resolved.request.generationConfig?.maxOutputTokens ?? undefined,
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
        capability: "nativeEmbedding",
        input:
          method === "embedContent"
            ? { method, request: body as EmbedContentRequest, promptTokens }
            : { method, request: body as BatchEmbedContentsRequest, promptTokens },
        model,
        isStream: false,
        promptTokenEstimate: promptTokens,
        maxOutputTokens: 0,
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
      const model = stripModelsPrefix(query.model);
      const page = await runUnbilledRelay(context, response, {
        capability: "nativeVoices",
        model,
        input: { ...query, model, page_size: toOptionalNumber(query.page_size) },
      });
      response.json(page);
    },
  };
}

/** The validator coerces query integers; a raw string still counts when it is one. */
function toOptionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}
