/**
 * The headers of one upstream call: the channel key as its adapter carries it (ProviderAdapter.credentialHeaders),
 * the body type, and what answer we accept. The relay binds the credentials for each attempt
 * (RelayAttemptInput.upstreamHeaders), so provider code never looks a channel type up.
 */
export function buildUpstreamHeaders(
  credentials: Readonly<Record<string, string>>,
  options: { stream?: boolean; jsonBody?: boolean; accept?: string } = {},
): Record<string, string> {
  const headers: Record<string, string> = { ...credentials };
  if (options.jsonBody !== false) headers["content-type"] = "application/json";
  headers.accept = options.accept ?? (options.stream ? "text/event-stream" : "application/json");
  return headers;
}
