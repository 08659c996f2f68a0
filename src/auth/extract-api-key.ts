import type { Request } from "express";
import type { ApiGeneration } from "../http/api-generation.js";
import { parseBearerToken } from "../keys/parse-api-key-header.js";

/**
 * Where a caller may put its key. `/v1` takes the Bearer header; the native generation also takes the two native
 * SDK headers and `?key=`, as the native API documents and the official native SDK does; Anthropic's Messages API
 * also takes `x-api-key`, which Claude Code sends.
 */
export function extractApiKey(request: Request, generation: ApiGeneration): string | undefined {
  const bearer = parseBearerToken(request.headers.authorization);
  if (bearer) return bearer;
  if (generation === "anthropic") {
    const header = request.headers["x-api-key"];
    return typeof header === "string" && header.trim() ? header.trim() : undefined;
  }
  if (generation !== "native") return bearer;
  const header = request.headers["x-goog-api-key"] ?? request.headers["x-native-api-key"];
  if (typeof header === "string" && header.trim()) return header.trim();
  const query = request.query.key;
  return typeof query === "string" && query.trim() ? query.trim() : undefined;
}
