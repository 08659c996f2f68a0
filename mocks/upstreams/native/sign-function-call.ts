import { createHash } from "node:crypto";

/**
 * The fake's thought signature of a function call: derived from the function and the user text it answered, so the
 * fake can tell later whether a signature sent back is the one it gave (the real one is an encrypted blob only the
 * upstream can check).
 */
export function signFunctionCall(name: string, lastUserText: string): string {
  return createHash("sha256").update(`signature:${name}:${lastUserText}`).digest("base64");
}
