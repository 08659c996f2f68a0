import type { components } from "../../../../generated/types/openai.js";
import { reasoningSignaturePrefix } from "../../shared-translations/reasoning-signature-prefix.js";

type ResponseOutputReasoning = components["schemas"]["ResponseOutputReasoning"];

/**
 * The Responses carrier of a thought signature the native answer put on its text: a reasoning item with an empty
 * summary whose `encrypted_content` holds the signature. `encrypted_content` is a typed field of every official SDK,
 * so it survives when the client sends the response's output back as the next input (see
 * readReasoningItemSignature for the way back).
 */
export function createSignatureReasoningItem(id: string, thoughtSignature: string): ResponseOutputReasoning {
  return {
    id,
    type: "reasoning",
    summary: [],
    encrypted_content: `${reasoningSignaturePrefix}${thoughtSignature}`,
    status: "completed",
  };
}
