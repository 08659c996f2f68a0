import type { ProviderImageError } from "../image-families/provider-image-error.js";
import { readErrorEnvelope } from "../image-families/read-error-envelope.js";

/** Codes of accounts that cannot serve (arrears, model not enabled): the channel's fault, not the request's. */
const channelFaultCodes = /^(AccountOverdueError|AccessDenied|ModelNotOpen|InvalidEndpoint|AuthenticationError)/;

/**
 * ARK's error envelope `{error: {code, message, param, type}}`. Its moderation codes all contain
 * `SensitiveContentDetected` (`InputTextSensitiveContentDetected`, `OutputImageSensitiveContentDetected.PolicyViolation`, …).
 */
export function readArkError(bodyText: string): ProviderImageError | undefined {
  const envelope = readErrorEnvelope(bodyText);
  if (envelope === undefined) return undefined;
  const { code, message, param } = envelope;
  return {
    ...(code ? { code } : {}),
    message,
    ...(param !== undefined && param !== "" ? { param } : {}),
    blocked: code?.includes("SensitiveContentDetected") === true,
    channelFault: code !== undefined && channelFaultCodes.test(code),
  };
}
