import { handleBatchEmbedContents } from "./handle-batch-embed-contents.js";
import { handleCountTokens } from "./handle-count-tokens.js";
import { handleEmbedContent } from "./handle-embed-content.js";
import { handleGenerateContent } from "./handle-generate-content.js";
import { handleListModels } from "./handle-list-models.js";
import { handleListVoices } from "./handle-list-voices.js";
import type { NativeAnswerContext } from "./fake-native-types.js";
import type { NativeAnswer } from "./native-answer.js";
import { NativeUpstreamError } from "./native-upstream-error.js";
import { normalizeModelName } from "./normalize-model-name.js";

export interface IncomingNativeRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  /** Parsed JSON, or INVALID_JSON when the body could not be parsed. */
  body: unknown;
}

export const INVALID_JSON = Symbol("invalid JSON");

/**
 * Maps the native URL space onto handlers. `/v1/…` is served like `/v1beta/…` for the model methods because the
 * real API (and newer native SDKs) use both.
 */
export function routeNativeRequest(request: IncomingNativeRequest, context: NativeAnswerContext): NativeAnswer {
  const { method, pathname, query } = request;
  if (method === "GET" && pathname === "/v1beta/voices") return handleListVoices(query);
  const modelsPath = /^\/(v1beta|v1)\/models(?:\/([^/]+))?$/.exec(pathname);
  if (!modelsPath) throw notFound(method, pathname);
  const target = modelsPath[2] === undefined ? undefined : decodeURIComponent(modelsPath[2]);
  if (method === "GET" && target === undefined) return handleListModels();
  if (target === undefined) throw notFound(method, pathname);
  const colon = target.indexOf(":");
  if (method === "GET" && colon < 0) return handleListModels(normalizeModelName(target, "get"));
  if (method !== "POST" || colon < 0) throw notFound(method, pathname);

  const action = target.slice(colon + 1);
  const model = normalizeModelName(target.slice(0, colon), action);
  if (request.body === INVALID_JSON)
    throw new NativeUpstreamError(400, "Invalid JSON payload received. Unexpected token.");
  switch (action) {
    case "generateContent":
      return handleGenerateContent(model, request.body, undefined, context);
    case "streamGenerateContent":
      return handleGenerateContent(model, request.body, { alt: query.get("alt") ?? undefined }, context);
    case "countTokens":
      return handleCountTokens(model, request.body);
    case "embedContent":
      return handleEmbedContent(model, request.body);
    case "batchEmbedContents":
      return handleBatchEmbedContents(model, request.body);
    default:
      throw notFound(method, pathname);
  }
}

function notFound(method: string, pathname: string): NativeUpstreamError {
  return new NativeUpstreamError(404, `Method not found: ${method} ${pathname}`);
}
