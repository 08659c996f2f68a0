import type { ProviderImageError } from "../image-families/provider-image-error.js";

/** Refusals about the channel's account or key, not the request. */
const channelFaultCodes = /^(InvalidApiKey|Arrearage|AccessDenied)/;

/**
 * DashScope's error envelope `{code, message, request_id}`. `DataInspectionFailed` (and
 * `InvalidParameter.DataInspection`) are its content-safety refusals.
 */
export function readDashscopeError(bodyText: string): ProviderImageError | undefined {
  let parsed: { code?: unknown; message?: unknown; output?: { code?: unknown; message?: unknown } };
  try {
    parsed = JSON.parse(bodyText) as typeof parsed;
  } catch {
    return undefined;
  }
  const source = typeof parsed?.code === "string" ? parsed : parsed?.output;
  if (typeof source?.code !== "string") return undefined;
  const code = source.code;
  return {
    code,
    message: typeof source.message === "string" ? source.message : code,
    blocked: code === "DataInspectionFailed" || code.endsWith("DataInspection") || code.includes("DataInspection"),
    channelFault: channelFaultCodes.test(code),
  };
}
