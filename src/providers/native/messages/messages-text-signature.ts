import { readReasoningItemSignature } from "../read-reasoning-item-signature.js";
import { readThoughtSignatureExtraContent } from "../read-thought-signature-extra-content.js";
import { reasoningSignaturePrefix } from "../reasoning-signature-prefix.js";

/**
 * A native text signature on the Messages door: the `signature` of an empty thinking block after the text it
 * signs, marked as the native kind (as the Responses door marks its reasoning items), since Anthropic's clients
 * send thinking blocks back exactly as they received them. A Claude signature has no such mark and is not sent.
 */
export function textSignatureToMessages(extraContent: unknown): string | undefined {
  const signature = readThoughtSignatureExtraContent(extraContent);
  return signature === undefined ? undefined : `${reasoningSignaturePrefix}${signature}`;
}

/** The native text signature of an assistant turn's thinking blocks, if one of them carries one. */
export function readTextSignatureOfTurn(
  blocks: ReadonlyArray<{ type: string; signature?: unknown }>,
): string | undefined {
  for (const block of blocks) {
    if (block.type !== "thinking") continue;
    const carried = readReasoningItemSignature(block.signature);
    if (carried !== undefined && "signature" in carried) return carried.signature;
  }
  return undefined;
}
