import type { IncomingHttpHeaders } from "node:http";

const plainJsonTypes = new Set([
  "application/json",
  "application/json; charset=utf-8",
  "application/json;charset=utf-8",
]);

/**
 * A request body the fast lane can read as the JSON body parser would: `application/json` (UTF-8), a declared
 * length within the limit, no content or transfer encoding. Anything else (chunked, compressed, another charset,
 * too large) is left to the body parser and its exact errors.
 */
export function isPlainJsonRequest(headers: IncomingHttpHeaders, limitBytes: number): boolean {
  const contentType = headers["content-type"];
  if (contentType === undefined || !plainJsonTypes.has(contentType.toLowerCase())) return false;
  if (headers["transfer-encoding"] !== undefined) return false;
  const encoding = headers["content-encoding"];
  if (encoding !== undefined && encoding.toLowerCase() !== "identity") return false;
  const declaredLength = headers["content-length"];
  if (declaredLength === undefined || !/^\d{1,10}$/.test(declaredLength)) return false;
  return Number(declaredLength) <= limitBytes;
}
