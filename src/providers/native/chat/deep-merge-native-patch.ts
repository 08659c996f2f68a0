/**
 * Merges extra_body.native over the request built from the OpenAI fields, as the product documents say: where both
 * sides hold a plain object the objects merge recursively; any other patch value (scalar, array, null) replaces the
 * base value; keys only in the base stay. Neither input is modified. Keys are defined as own properties, so a patch key
 * named `__proto__` stays data instead of changing the result's prototype.
 */
export function deepMergeNativePatch(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) define(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    const current = Object.hasOwn(result, key) ? result[key] : undefined;
    define(result, key, isPlainObject(current) && isPlainObject(value) ? deepMergeNativePatch(current, value) : value);
  }
  return result;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
