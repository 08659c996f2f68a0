import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import { convertEmbeddingRequestToNative } from "./convert-embedding-request-to-native.js";
import { readEmbeddingTexts } from "../../shared-translations/read-embedding-texts.js";
import { convertNativeEmbeddingsToOpenai } from "../../shared-translations/convert-native-embeddings-to-openai.js";
import { estimateEmbeddingTokens } from "../../shared-translations/estimate-embedding-tokens.js";

type EmbeddingRequest = OpenaiComponents["schemas"]["CreateEmbeddingRequest"];
type BatchEmbedContentsResponse = NativeComponents["schemas"]["BatchEmbedContentsResponse"];
type ContentEmbedding = NativeComponents["schemas"]["ContentEmbedding"];

/**
 * /v1/embeddings against a native channel: one `:batchEmbedContents` call per 100 inputs, one after the other (a
 * burst of parallel batches would trip the upstream's rate limit sooner), converted back to the OpenAI list in the
 * format the client asked for. Usage is the gateway's count (estimateEmbeddingTokens): the upstream reports none.
 */
export async function relayNativeEmbeddings(request: EmbeddingRequest, input: RelayAttemptInput): Promise<void> {
  const batches = convertEmbeddingRequestToNative(request, input.attempt.upstreamModel);
  const embeddings: ContentEmbedding[] = [];
  for (const batch of batches) {
    const answer = await sendUpstreamJsonRequest<Partial<BatchEmbedContentsResponse>>(input.attempt, {
      method: "POST",
      path: `/v1beta/models/${encodeURIComponent(input.attempt.upstreamModel)}:batchEmbedContents`,
      headers: input.upstreamHeaders(),
      body: JSON.stringify(batch),
      signal: input.signal,
    });
    const received = Array.isArray(answer.embeddings) ? answer.embeddings : [];
    if (received.length !== batch.requests.length || received.some((embedding) => !Array.isArray(embedding?.values))) {
      // Vectors out of step with the inputs would be silently misattributed; nothing reached the client yet.
      throw new UpstreamFailure(
        `The upstream returned ${received.length} embeddings for ${batch.requests.length} inputs.`,
        false,
        {
          status: 502,
          code: "bad_response",
        },
      );
    }
    embeddings.push(...received);
  }
  const promptTokens = estimateEmbeddingTokens(readEmbeddingTexts(request.input));
  input.observed.usage = { promptTokens, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
  input.deliver(
    convertNativeEmbeddingsToOpenai(embeddings, {
      model: request.model,
      encodingFormat: request.encoding_format ?? "float",
      promptTokens,
    }),
  );
}
