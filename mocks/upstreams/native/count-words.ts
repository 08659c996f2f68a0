/** The fake's token unit: one whitespace-separated word is one token. */
export function countWords(text: string): number {
  return splitIntoWords(text).length;
}

/** Splits keeping each word's leading whitespace, so the pieces concatenate back to the exact text. */
export function splitIntoWords(text: string): string[] {
  return text.match(/\s*\S+\s*$|\s*\S+/g) ?? [];
}
