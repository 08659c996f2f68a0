import { anthropicErrorType } from "./anthropic-request-error.js";

const defaultMessages: Record<string, string> = {
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit.",
  overloaded_error: "Overloaded",
  api_error: "Internal server error",
};

/** Anthropic's error envelope, as its API answers every failure. */
export function renderAnthropicErrorBody(status: number, message?: string, requestId = "req_fake_error"): object {
  const type = anthropicErrorType(status);
  return {
    type: "error",
    error: { type, message: message ?? defaultMessages[type] ?? `Error ${status}` },
    request_id: requestId,
  };
}
