import { AnthropicRequestError } from "../anthropic/anthropic-request-error.js";
import { countPromptTokens } from "../anthropic/count-prompt-tokens.js";
import { planMessageReply } from "../anthropic/plan-message-reply.js";
import { validateMessageRequest } from "../anthropic/validate-message-request.js";
import { sendMessage, streamMessage } from "../anthropic/write-message-answer.js";
import type { IdSequence } from "../shared/create-id-sequence.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { createGoogleErrorBody } from "./google-error-body.js";

export interface ClaudeOnVertexState {
  ids: IdSequence;
  /** Claude's prompt cache on this fake project: a prefix sent again is read from it. */
  cachedPrefixes: Set<string>;
}

/**
 * Claude as a Vertex AI publisher model: `:rawPredict` answers Claude's message, `:streamRawPredict` Claude's SSE
 * stream, by the Anthropic fake's rules. The body is Claude's without `model` (refused, as Vertex does) and with
 * `anthropic_version: vertex-2023-10-16`; Claude's own checks (max_tokens, blocks, signatures) answer 400 in
 * Google's error envelope.
 */
export async function handleClaudeRawPredict(
  exchange: FakeExchange,
  model: string,
  method: string,
  state: ClaudeOnVertexState,
): Promise<void> {
  const invalid = (message: string) => sendJson(exchange, 400, createGoogleErrorBody(400, message, "INVALID_ARGUMENT"));
  if (method !== "rawPredict" && method !== "streamRawPredict") return invalid(`Unknown method ${method}.`);
  const body = exchange.body.value as Record<string, unknown> | undefined;
  if (exchange.body.invalidJson || typeof body !== "object" || body === null) return invalid("Invalid JSON payload.");
  if ("model" in body) return invalid("model: Extra inputs are not permitted");
  if (body.anthropic_version !== "vertex-2023-10-16")
    return invalid("anthropic_version: Input should be 'vertex-2023-10-16'");
  let request: ReturnType<typeof validateMessageRequest>;
  try {
    request = validateMessageRequest({ ...body, model }, { countOnly: false });
  } catch (error) {
    if (error instanceof AnthropicRequestError) return invalid(error.message);
    throw error;
  }
  const prompt = countPromptTokens(request);
  const cacheRead = prompt.prefixKey !== undefined && state.cachedPrefixes.has(prompt.prefixKey);
  if (prompt.prefixKey !== undefined) state.cachedPrefixes.add(prompt.prefixKey);
  const plan = planMessageReply(request, prompt, cacheRead, state.ids);
  if (method === "streamRawPredict") await streamMessage(exchange, plan, model);
  else await sendMessage(exchange, plan, model);
}
