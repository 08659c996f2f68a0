import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { readEmbeddingTexts } from "../../shared-translations/read-embedding-texts.js";

type EmbeddingRequest = OpenaiComponents["schemas"]["CreateEmbeddingRequest"];
type BatchEmbedContentsRequest = NativeComponents["schemas"]["BatchEmbedContentsRequest"];
type EmbedContentRequest = NativeComponents["schemas"]["EmbedContentRequest"];

/** The native API takes at most 100 requests per batchEmbedContents call; OpenAI clients may send 2048 inputs. */
export const maxNativeEmbedRequestsPerBatch = 100;

/**
 * OpenAI embeddings request → the `:batchEmbedContents` bodies that answer it, in input order: one embed request per
 * input string (each gets its own vector, as OpenAI clients expect; a single request with several parts would embed
 * them together), `dimensions` → outputDimensionality, split into batches the upstream accepts. Token-id input has
 * no native equivalent (the native tokenizer is another one) and is refused. `user` and unknown fields are dropped.
 */
export function convertEmbeddingRequestToNative(
  request: EmbeddingRequest,
  upstreamModel: string,
): BatchEmbedContentsRequest[] {
  const texts = readEmbeddingTexts(request.input);
  const model = upstreamModel.startsWith("models/") ? upstreamModel : `models/${upstreamModel}`;
  const requests = texts.map((text): EmbedContentRequest => {
    const embedRequest: EmbedContentRequest = { model, content: { parts: [{ text }] } };
    if (request.dimensions !== undefined) embedRequest.outputDimensionality = request.dimensions;
    return embedRequest;
  });
  const batches: BatchEmbedContentsRequest[] = [];
  for (let start = 0; start < requests.length; start += maxNativeEmbedRequestsPerBatch) {
    batches.push({ requests: requests.slice(start, start + maxNativeEmbedRequestsPerBatch) });
  }
  return batches;
}
