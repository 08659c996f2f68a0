/**
 * A vector as OpenAI's `encoding_format: base64` sends it: little-endian float32 values, base64. Written value by
 * value with writeFloatLE so the byte order does not depend on the host's.
 */
export function encodeEmbeddingAsBase64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}
