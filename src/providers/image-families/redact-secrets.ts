const apiKeyPattern = /\bsk-[A-Za-z0-9_-]{16,}/g;

/**
 * A provider's message as our clients may read it: the channel's own keys (a provider may echo the key it was sent)
 * and anything shaped like an API key are masked, and the text is cut short.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join("***");
  return result.replace(apiKeyPattern, "sk-***").slice(0, 500);
}
