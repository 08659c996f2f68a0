import { createHash } from "node:crypto";

export const DEFAULT_EMBEDDING_DIMENSION = 8;

/**
 * Deterministic vector for a text: value i comes from SHA-256(text, block) bytes, mapped to [-1, 1] and rounded
 * to 6 decimals so JSON round-trips exactly in assertions.
 */
export function computeEmbeddingValues(text: string, dimension: number = DEFAULT_EMBEDDING_DIMENSION): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimension; block += 1) {
    const digest = createHash("sha256").update(`${block}\u0000${text}`).digest();
    for (let offset = 0; offset < digest.length && values.length < dimension; offset += 4) {
      const unit = digest.readUInt32BE(offset) / 0xffffffff;
      values.push(Math.round((unit * 2 - 1) * 1e6) / 1e6);
    }
  }
  return values;
}
