/** OpenAI's `encoding_format: base64`: the vector as little-endian float32 bytes, base64-encoded. */
export function encodeEmbeddingBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}
