/** The protocol version the gateway speaks to Claude when the client names none. */
export const defaultAnthropicVersion = "2023-06-01";

/**
 * The client's Anthropic headers over the channel's defaults: its `anthropic-version` (the body it sent is written
 * for that version) and its `anthropic-beta` list (beta fields in the body need them).
 */
export function withClientAnthropicHeaders(
  headers: Record<string, string>,
  clientHeaders: Readonly<Record<string, string>>,
  options: { version: boolean } = { version: true },
): Record<string, string> {
  const version = clientHeaders["anthropic-version"];
  const beta = clientHeaders["anthropic-beta"];
  if (version && options.version) headers["anthropic-version"] = version;
  if (beta) headers["anthropic-beta"] = beta;
  return headers;
}

/** The client's Anthropic headers, read through `clientHeader` (those it did not send are left out). */
export function readClientAnthropicHeaders(clientHeader: (name: string) => string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ["anthropic-version", "anthropic-beta"]) {
    const value = clientHeader(name);
    if (value) headers[name] = value;
  }
  return headers;
}
