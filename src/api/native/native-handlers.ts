import type { Request, Response } from "express";
import { readRequestIds } from "../../http/read-request-ids.js";
import type { components, operations } from "../../../generated/types/native.js";
import { isModelAllowed } from "../../auth/is-model-allowed.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";
import type { RoutingToken } from "../../channels/channel-router.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { applyNativeThinkingSuffix } from "./apply-native-thinking-suffix.js";
import { assertNativeSpeechRules } from "./assert-native-speech-rules.js";
import { buildNativeModelsPage } from "./build-native-models-page.js";
import { countNativeEmbeddingTokens } from "./count-native-embedding-tokens.js";
import { stripModelsPrefix } from "./strip-models-prefix.js";
import { resolveCallModel } from "../../relay/resolve-call-model.js";
import { runRelay } from "../../relay/run-relay.js";
import { runUnbilledRelay } from "../../relay/run-unbilled-relay.js";
import type { TokenRecord } from "../../store/tokens/token-record.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../../users/authenticated-request.js";
import { resolveRoutingToken } from "../../relay/resolve-routing-token.js";

type GenerateContentRequest = components["schemas"]["GenerateContentRequest"];
type EmbedContentRequest = components["schemas"]["EmbedContentRequest"];
type BatchEmbedContentsRequest = components["schemas"]["BatchEmbedContentsRequest"];
type CountTokensRequest = components["schemas"]["CountTokensRequest"];

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
      const resolvedModel = resolveCallModel(context, response, model, "any-model");
      const resolved = applyNativeThinkingSuffix(resolvedModel, request.body as GenerateContentRequest, {
        stream: streaming,
      });
      if (resolved.warnings.length > 0)
        context.logger.debug(
          { requestId: readRequestIds(request).requestId, model, warnings: resolved.warnings },
          "thinking suffix adjusted",
        );
      assertNativeSpeechRules(resolvedModel.routingModel, resolved.request);
      const promptTokenEstimate = estimatePromptTokens(resolved.request);
      await runRelay(context, request, response, {
        capability: "nativeGeneration",
        input: { request: resolved.request, mode, promptTokenEstimate },
        model,
        resolvedModel,
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

  // Counted by a channel serving the model, never billed: the model is read as for generation (a thinking
  // variant counts as its base model) and goes through the same key checks and routing.
  async function countTokens(request: Request, response: Response) {
    const model = stripModelsPrefix(readPathParameter(request, "model"));
    const body = assertOneCountTokensSource(request.body as CountTokensRequest);
    const resolvedModel = resolveCallModel(context, response, model, "any-model");
    response.json(
      await runUnbilledRelay(context, response, { capability: "nativeCountTokens", model, resolvedModel, input: body }),
    );
  }

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
    countTokens,
    countTokensV1: countTokens,
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

/** The native API counts either `contents` or a whole `generateContentRequest`, never both or neither. */
function assertOneCountTokensSource(body: CountTokensRequest): CountTokensRequest {
  const given = [body.contents, body.generateContentRequest].filter((source) => source !== undefined).length;
  if (given !== 1)
    throw new InvalidRequestError("Send either contents or generateContentRequest to count, not both or neither.", {
      param: given === 0 ? "contents" : "generateContentRequest",
    });
  return body;
}
