/** A refusal the fake answers in Anthropic's error envelope, with Anthropic's type for the status. */
export class AnthropicRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = anthropicErrorType(status),
  ) {
    super(message);
  }
}

/** Anthropic's error type for an HTTP status (its documented table). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 504:
      return "timeout_error";
    case 529:
      return "overloaded_error";
    default:
      return "api_error";
  }
}
