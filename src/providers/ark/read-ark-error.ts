import type { ProviderImageError } from "../image-families/provider-image-error.js";

/** Codes of accounts that cannot serve (arrears, model not enabled): the channel's fault, not the request's. */
const channelFaultCodes = /^(AccountOverdueError|AccessDenied|ModelNotOpen|InvalidEndpoint|AuthenticationError)/;

/**
 * ARK's error envelope `{error: {code, message, param, type}}`. Its moderation codes all contain
 * `SensitiveContentDetected` (`InputTextSensitiveContentDetected`, `OutputImageSensitiveContentDetected.PolicyViolation`, …).
 */
export function readArkError(bodyText: string): ProviderImageError | undefined {
  let parsed: { error?: { code?: unknown; message?: unknown; param?: unknown } };
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
    ...(typeof error.param === "string" && error.param !== "" ? { param: error.param } : {}),
    blocked: code?.includes("SensitiveContentDetected") === true,
    channelFault: code !== undefined && channelFaultCodes.test(code),
  };
}
