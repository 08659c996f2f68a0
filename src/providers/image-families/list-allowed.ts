/** "a, b or c": the allowed values as a message lists them. */
export function listAllowed(values: readonly unknown[]): string {
  const texts = values.map(String);
  return texts.length <= 1 ? (texts[0] ?? "") : `${texts.slice(0, -1).join(", ")} or ${texts.at(-1)}`;
}
