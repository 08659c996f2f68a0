import type { Response } from "express";
import type { components } from "../../../../generated/types/openai.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";

type EmbeddingRequest = components["schemas"]["CreateEmbeddingRequest"];
type EmbeddingResponse = components["schemas"]["CreateEmbeddingResponse"];

/** Embeddings pass through; `encoding_format: base64` (the official SDK's default) is the upstream's to honour. */
export async function relayOpenaiEmbeddings(
  request: EmbeddingRequest,
  response: Response,
  input: RelayAttemptInput,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  const result = await sendUpstreamJsonRequest<EmbeddingResponse>(input.attempt, {
    method: "POST",
    path: dialect.path("embeddings", input.attempt),
    headers: input.upstreamHeaders(),
    body: JSON.stringify({ ...withoutInjectedDefaults(request, response), model: input.attempt.upstreamModel }),
    signal: input.signal,
  });
  input.observed.usage = {
    promptTokens: result.usage?.prompt_tokens ?? 0,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
  };
  result.model = request.model;
  input.deliver(result);
}
