import { createHash } from "node:crypto";
import type { UploadedVideoFile } from "./video-model-family.js";

/**
 * A fingerprint of a submission, to tell an idempotent replay (same body) from a different request reusing the
 * key: the body with its keys sorted at every level, and each uploaded file's field, name, type and bytes.
 */
export function hashVideoRequest(body: Record<string, unknown>, files: readonly UploadedVideoFile[]): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(sortKeys(body)));
  for (const file of files) {
    hash.update(`\n${file.fieldname}\n${file.originalname}\n${file.mimetype}\n`);
    hash.update(file.buffer);
  }
  return hash.digest("hex");
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
