import { computeEmbeddingValues, DEFAULT_EMBEDDING_DIMENSION } from "./compute-embedding-values.js";
import type { NativeAnswer } from "./native-answer.js";
import { NativeUpstreamError } from "./native-upstream-error.js";

const MAX_OUTPUT_DIMENSION = 3072;

interface EmbedContentRequest {
  model?: unknown;
  content?: { parts?: unknown };
  outputDimensionality?: unknown;
}

/** embedContent: {content{parts[{text}]}, outputDimensionality?} → {embedding{values}}. */
export function handleEmbedContent(model: string, body: unknown): NativeAnswer {
  return { kind: "json", status: 200, body: { embedding: embedOneRequest(model, body, "") } };
}

/** Shared with batchEmbedContents; `where` prefixes messages with the failing request's position. */
export function embedOneRequest(model: string, body: unknown, where: string): { values: number[] } {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw invalid(`${where}Invalid JSON payload received. Expected an object.`);
  const request = body as EmbedContentRequest;
  if (request.model !== undefined && request.model !== `models/${model}`) {
    throw invalid(`${where}model must be "models/${model}" (the model in the URL), got "${String(request.model)}"`);
  }
  const parts = request.content?.parts;
  if (!Array.isArray(parts) || parts.length === 0) throw invalid(`${where}content is required`);
  const texts = parts.map((part: { text?: unknown } | null) => part?.text);
  if (texts.some((text) => typeof text !== "string")) throw invalid(`${where}content.parts must be text parts`);
  const dimension = request.outputDimensionality ?? DEFAULT_EMBEDDING_DIMENSION;
  if (!Number.isInteger(dimension) || (dimension as number) < 1 || (dimension as number) > MAX_OUTPUT_DIMENSION) {
    throw invalid(`${where}outputDimensionality must be an integer between 1 and ${MAX_OUTPUT_DIMENSION}`);
  }
  return { values: computeEmbeddingValues(texts.join(" "), dimension as number) };
}

function invalid(message: string): NativeUpstreamError {
  return new NativeUpstreamError(400, message);
}
