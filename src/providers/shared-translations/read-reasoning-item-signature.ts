import { reasoningSignaturePrefix } from "./reasoning-signature-prefix.js";

/**
 * The native thought signature in a reasoning item's `encrypted_content`: `signature` when this gateway gave it,
 * `foreign` when the item carries encrypted content of another kind, nothing when it carries none.
 */
export function readReasoningItemSignature(
  encryptedContent: unknown,
): { signature: string } | { foreign: true } | undefined {
  if (typeof encryptedContent !== "string" || encryptedContent === "") return undefined;
  if (!encryptedContent.startsWith(reasoningSignaturePrefix)) return { foreign: true };
  const signature = encryptedContent.slice(reasoningSignaturePrefix.length);
  return signature === "" ? { foreign: true } : { signature };
}
