import type { components } from "../../../generated/types/openai.js";

type ChatCompletionExtraContent = components["schemas"]["ChatCompletionExtraContent"];

/**
 * The `extra_content` that carries a native thought signature through the chat door: the shape Google's own OpenAI
 * compatibility layer uses, so histories move between it and the gateway, and the official SDKs keep it on the
 * message the client appends to its next request.
 */
export function createThoughtSignatureExtraContent(thoughtSignature: string): ChatCompletionExtraContent {
  return { google: { thought_signature: thoughtSignature } };
}
