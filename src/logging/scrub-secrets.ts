// Full API keys (`sk-` + 48) and long bearer-like secrets must never reach a log line, whatever logged them.
const apiKeyPattern = /sk-([A-Za-z0-9]{4})[A-Za-z0-9]{16,}([A-Za-z0-9]{4})/g;

/** Masks anything shaped like an API key in an already serialised log line. */
export function scrubSecrets(text: string): string {
  return text.includes("sk-") ? text.replace(apiKeyPattern, "sk-$1**********$2") : text;
}
