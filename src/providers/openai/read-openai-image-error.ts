import type { ProviderImageError } from "../image-families/provider-image-error.js";

/** Codes OpenAI-compatible image APIs use for a safety refusal. */
const blockedCodes = new Set(["moderation_blocked", "content_policy_violation", "prompt_blocked"]);

/** The OpenAI envelope `{error: {message, type, param, code}}` of an image call. */
export function readOpenaiImageError(bodyText: string): ProviderImageError | undefined {
  let parsed: { error?: { message?: unknown; param?: unknown; code?: unknown } };
  try {
    parsed = JSON.parse(bodyText) as typeof parsed;
  } catch {
    return undefined;
  }
  const error = parsed?.error;
  if (typeof error !== "object" || error === null) return undefined;
  const code = typeof error.code === "string" ? error.code : undefined;
  return {
    ...(code ? { code } : {}),
    message: typeof error.message === "string" ? error.message : (code ?? "unknown error"),
    ...(typeof error.param === "string" ? { param: error.param } : {}),
    blocked: code !== undefined && blockedCodes.has(code),
    channelFault: code === "invalid_api_key" || code === "model_not_found",
  };
}
