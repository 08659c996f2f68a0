import type { components } from "../../../generated/types/openai.js";

type ChatCompletionExtraContent = components["schemas"]["ChatCompletionExtraContent"];
type ResponseOutputReasoning = components["schemas"]["ResponseOutputReasoning"];

// The thought-signature round trip. Generation-3 native models sign their reasoning, and refuse a later turn whose
// signatures are not sent back. An OpenAI-style client knows nothing of them, so the gateway puts each signature
// where the client's own history carries it back unchanged: in a tool call's id and in a message's `extra_content`
// on the chat surface, in a reasoning item's `encrypted_content` on the Responses surface; and reads it back from
// there when the history returns.

/**
 * Between a tool call id and the thought signature it carries (`call_abc__thought__<signature>`). Generation-3
 * native models refuse a function-call turn whose signature is not sent back, and OpenAI clients echo exactly one
 * thing of a tool call: its id (in the assistant message and in the tool result). LiteLLM uses the same separator,
 * so histories move between the two gateways. Signatures are base64, which never contains `__thought__`.
 */
export const thoughtSignatureSeparator = "__thought__";

/** A tool call id that carries the native thoughtSignature of its functionCall part (unchanged when there is none). */
export function attachThoughtSignature(id: string, thoughtSignature: string | undefined): string {
  return thoughtSignature ? `${id}${thoughtSignatureSeparator}${thoughtSignature}` : id;
}

/** A tool call id from a client → the id the upstream knows and the thoughtSignature it carried, if any. */
export function splitToolCallId(id: string): { id: string; thoughtSignature?: string } {
  const at = id.indexOf(thoughtSignatureSeparator);
  if (at < 0) return { id };
  const thoughtSignature = id.slice(at + thoughtSignatureSeparator.length);
  return thoughtSignature === "" ? { id: id.slice(0, at) } : { id: id.slice(0, at), thoughtSignature };
}

/**
 * The `extra_content` that carries a native thought signature through the chat door: the shape Google's own OpenAI
 * compatibility layer uses, so histories move between it and the gateway, and the official SDKs keep it on the
 * message the client appends to its next request.
 */
export function createThoughtSignatureExtraContent(thoughtSignature: string): ChatCompletionExtraContent {
  return { google: { thought_signature: thoughtSignature } };
}

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

/**
 * Marks a Responses reasoning item's `encrypted_content` as a native thought signature given by this gateway
 * (`native-thought-signature:<signature>`). A reasoning item from another provider (OpenAI's encrypted reasoning)
 * has no such prefix and is never sent to the native API as a signature it would refuse as corrupted.
 */
export const reasoningSignaturePrefix = "native-thought-signature:";

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
