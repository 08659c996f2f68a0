import type { ChannelAttempt } from "../channels/channel-router.js";

/**
 * The headers of one upstream call: the channel's credential in its protocol's place (OpenAI-compatible:
 * `Authorization: Bearer`; native: `x-goog-api-key`), the body type, and what answer we accept.
 */
export function buildUpstreamHeaders(
  attempt: ChannelAttempt,
  options: { stream?: boolean; jsonBody?: boolean; accept?: string } = {},
): Record<string, string> {
  const headers: Record<string, string> =
    attempt.channel.type === "native"
      ? { "x-goog-api-key": attempt.upstreamKey }
      : { authorization: `Bearer ${attempt.upstreamKey}` };
  if (options.jsonBody !== false) headers["content-type"] = "application/json";
  headers.accept = options.accept ?? (options.stream ? "text/event-stream" : "application/json");
  return headers;
}
