import { createHmac } from "node:crypto";

const signingKey = "fake-anthropic-thinking";

/**
 * The signature of a thinking block: a keyed hash of its text, so the fake can tell a block it wrote, sent back
 * unchanged, from an edited or invented one (as Anthropic refuses both).
 */
export function signThinking(thinking: string): string {
  // The separator keeps the hash from reading as one long key-shaped run of letters and digits.
  return `EqSig_${createHmac("sha256", signingKey).update(thinking).digest("base64")}`;
}
