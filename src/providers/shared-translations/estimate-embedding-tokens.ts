/**
 * The prompt_tokens reported and billed for a native embedding request. The native embedding API reports no usage
 * at all, so the gateway counts, with a documented rule a client can reproduce: per input, one token per 4 ASCII
 * characters (rounded up; the usual average of BPE tokenizers on English) plus one token per non-ASCII character
 * (CJK and emoji run near one token each), at least 1 per input. Surrogate pairs count as one character.
 */
export function estimateEmbeddingTokens(texts: readonly string[]): number {
  let total = 0;
  for (const text of texts) {
    let asciiCharacters = 0;
    let otherCharacters = 0;
    for (const character of text) {
      if (character.charCodeAt(0) < 128) asciiCharacters += 1;
      else otherCharacters += 1;
    }
    total += Math.max(1, Math.ceil(asciiCharacters / 4) + otherCharacters);
  }
  return total;
}
