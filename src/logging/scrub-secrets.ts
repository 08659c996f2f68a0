// Full API keys must never reach a log line, whatever logged them: the `sk-` form (`sk-` + 48) and the bare
// 48-character form the key endpoints hand out. Nothing else the gateway logs is a lone run of 48 letters and
// digits (ids are shorter, hashes are hex of other lengths).
const prefixedKeyPattern = /sk-([A-Za-z0-9]{4})[A-Za-z0-9]{16,}([A-Za-z0-9]{4})/g;
const bareKeyPattern = /(?<![A-Za-z0-9])([A-Za-z0-9]{4})[A-Za-z0-9]{40}([A-Za-z0-9]{4})(?![A-Za-z0-9])/g;
const fortyEightAlphanumerics = /[A-Za-z0-9]{48}/;
// Channel keys of other shapes that upstreams quote back: Google-style `AIza…` keys and bearer credentials.
const googleKeyPattern = /AIza([A-Za-z0-9_-]{20,})/g;
const bearerPattern = /(Bearer\s+)([A-Za-z0-9._~+/=-]{4})[A-Za-z0-9._~+/=-]{8,}/gi;

/** Masks anything shaped like an API key in an already serialised log line. */
export function scrubSecrets(text: string): string {
  let scrubbed = text.includes("sk-") ? text.replace(prefixedKeyPattern, "sk-$1**********$2") : text;
  if (fortyEightAlphanumerics.test(scrubbed)) scrubbed = scrubbed.replace(bareKeyPattern, "$1**********$2");
  if (scrubbed.includes("AIza"))
    scrubbed = scrubbed.replace(googleKeyPattern, (match) => `AIza**********${match.slice(-4)}`);
  if (/bearer/i.test(scrubbed)) scrubbed = scrubbed.replace(bearerPattern, "$1$2**********");
  return scrubbed;
}
