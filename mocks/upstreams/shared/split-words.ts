/** Whitespace-separated words: the fakes' whole notion of a "token", so usage numbers are easy to predict. */
export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}
