/**
 * Splits single-space-joined text into stream pieces, one per word, each after the first carrying its leading
 * space (as tokenizers do), so the pieces concatenate back to the exact text.
 */
export function splitIntoPieces(text: string): string[] {
  if (text.length === 0) return [];
  return text.split(" ").map((word, index) => (index === 0 ? word : ` ${word}`));
}
