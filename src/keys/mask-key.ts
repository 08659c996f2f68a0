/**
 * Always ten asterisks, whatever the key length (the count new-api uses):
 * a fixed count hides the length, so a masked key reveals only its first and
 * last four characters.
 */
const maskAsterisks = "*".repeat(10);

/**
 * The masked form shown in token lists, details and update responses:
 * first 4 characters, 10 asterisks, last 4. Apply it to the key without the
 * `sk-` prefix. Keys of 8 or fewer characters would be revealed whole, so they
 * become the asterisks alone; the empty string stays empty.
 */
export function maskKey(key: string): string {
  if (key === "") return "";
  if (key.length <= 8) return maskAsterisks;
  return `${key.slice(0, 4)}${maskAsterisks}${key.slice(-4)}`;
}
