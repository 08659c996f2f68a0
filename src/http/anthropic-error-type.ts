/**
 * Anthropic's error `type` for one of our statuses: the table Anthropic documents (and its SDKs type errors by),
 * with a gateway's own failures of the upstream (502) as `api_error` and a saturated model (503) as
 * `overloaded_error`, the type Claude's clients back off on.
 */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
    case 405:
    case 409:
    case 415:
    case 422:
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
    case 503:
    case 529:
      return "overloaded_error";
    case 504:
      return "timeout_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}
