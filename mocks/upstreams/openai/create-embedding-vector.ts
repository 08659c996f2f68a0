import { createHash } from "node:crypto";

/**
 * A deterministic unit-length vector for a text: SHA-256 of `text`, a NUL and a block number gives 8 values per
 * block, scaled to [-1, 1], normalised, and rounded to float32 so the float and base64 encodings agree exactly.
 */
export function createEmbeddingVector(text: string, dimensions: number): number[] {
  const raw: number[] = [];
  for (let block = 0; raw.length < dimensions; block += 1) {
    const digest = createHash("sha256").update(`${text}\u0000${block}`).digest();
    for (let offset = 0; offset < digest.length && raw.length < dimensions; offset += 4) {
      raw.push((digest.readUInt32LE(offset) / 0xffffffff) * 2 - 1);
    }
  }
  const norm = Math.sqrt(raw.reduce((total, value) => total + value * value, 0)) || 1;
  return raw.map((value) => Math.fround(value / norm));
}
