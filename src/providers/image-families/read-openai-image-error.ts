import type { ProviderImageError } from "./provider-image-error.js";
import { readErrorEnvelope } from "./read-error-envelope.js";

/** Codes OpenAI-compatible image APIs use for a safety refusal (`content_filter`: Azure OpenAI's content filter). */
const blockedCodes = new Set(["moderation_blocked", "content_policy_violation", "prompt_blocked", "content_filter"]);

/** The OpenAI envelope `{error: {message, type, param, code}}` of an image call. */
export function readOpenaiImageError(bodyText: string): ProviderImageError | undefined {
  const envelope = readErrorEnvelope(bodyText);
  if (envelope === undefined) return undefined;
  const { code } = envelope;
  return {
    ...envelope,
    blocked: code !== undefined && blockedCodes.has(code),
    channelFault: code === "invalid_api_key" || code === "model_not_found",
  };
}
