/**
 * The thought signature inside a client's `extra_content` (`{google: {thought_signature}}`), if it holds a non-empty
 * one. Tolerant of any other shape: the field is the client's echo of what the gateway (or Google) gave.
 */
export function readThoughtSignatureExtraContent(extraContent: unknown): string | undefined {
  if (typeof extraContent !== "object" || extraContent === null) return undefined;
  const google = (extraContent as { google?: unknown }).google;
  if (typeof google !== "object" || google === null) return undefined;
  const signature = (google as { thought_signature?: unknown }).thought_signature;
  return typeof signature === "string" && signature !== "" ? signature : undefined;
}
