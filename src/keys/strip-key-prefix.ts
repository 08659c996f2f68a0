const keyPrefix = "sk-";

/** Removes one leading `sk-`; keys are stored and returned without it. */
export function stripKeyPrefix(value: string): string {
  return value.startsWith(keyPrefix) ? value.slice(keyPrefix.length) : value;
}
