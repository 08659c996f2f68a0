import { createHash } from "node:crypto";

/**
 * The fake's thought signature of a generation-3 text answer: derived from the whole answer text, so the fake can
 * tell whether a later request sent the answer back with the signature it gave (checkTextThoughtSignatures).
 */
export function signAnswerText(text: string): string {
  return createHash("sha256").update(`text-signature:${text}`).digest("base64");
}
