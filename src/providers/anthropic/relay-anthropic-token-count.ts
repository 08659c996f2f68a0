import type { UnbilledAttemptInput } from "../contract/provider-adapter.js";
import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import type { MessageTokenCountCall } from "../contract/messages-call.js";
import { withClientAnthropicHeaders } from "./anthropic-headers.js";

/** Claude's own count of a prompt (POST /v1/messages/count_tokens), with the channel's model name. */
export async function relayAnthropicTokenCount(
  call: MessageTokenCountCall,
  input: UnbilledAttemptInput,
): Promise<{ input_tokens: number }> {
  const answer = await sendUpstreamJsonRequest<{ input_tokens?: unknown }>(input.attempt, {
    method: "POST",
    path: "/v1/messages/count_tokens",
    headers: withClientAnthropicHeaders(input.upstreamHeaders(), call.anthropicHeaders),
    body: JSON.stringify({ ...call.request, model: input.attempt.upstreamModel }),
    signal: input.signal,
  });
  const inputTokens = typeof answer.input_tokens === "number" ? answer.input_tokens : 0;
  return { input_tokens: inputTokens };
}
