import type { ChannelAttempt } from "../channels/channel-router.js";
import { findProviderAdapter } from "../providers/find-provider-adapter.js";

/**
 * The headers of one upstream call: the channel's credential where its adapter puts it (credentialHeaders), the
 * body type, and what answer we accept.
 */
export function buildUpstreamHeaders(
  attempt: ChannelAttempt,
  options: { stream?: boolean; jsonBody?: boolean; accept?: string } = {},
): Record<string, string> {
  const headers = findProviderAdapter(attempt.channel.type).credentialHeaders(attempt.upstreamKey);
  if (options.jsonBody !== false) headers["content-type"] = "application/json";
  headers.accept = options.accept ?? (options.stream ? "text/event-stream" : "application/json");
  return headers;
}
