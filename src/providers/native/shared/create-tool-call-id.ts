import { createHash } from "node:crypto";

/**
 * The id of a tool call the native upstream gave none for. Derived from the response id, the choice and the call's
 * position, so the same answer always yields the same ids (a replayed stream, a test fixture) while different
 * answers of one conversation never collide.
 */
export function createToolCallId(completionId: string, choiceIndex: number, callIndex: number): string {
  const digest = createHash("sha256").update(`${completionId}:${choiceIndex}:${callIndex}`).digest("base64url");
  return `call_${digest.replaceAll(/[-_]/g, "").slice(0, 24)}`;
}
