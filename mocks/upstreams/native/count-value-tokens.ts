import { countWords } from "./count-words.js";

/**
 * Tokens of structured values (function call args, function responses):
 * a string counts its words, any other scalar 1, an object 1 per key plus its values.
 */
export function countValueTokens(value: unknown): number {
  if (typeof value === "string") return countWords(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countValueTokens(item), 0);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).reduce((sum, [, item]) => sum + 1 + countValueTokens(item), 0);
  }
  return 1;
}
