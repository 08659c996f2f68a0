/**
 * Maps an HTTP status to the OpenAI-style `error.type` string, so callers only
 * need to name a type when it differs from what the status already implies.
 */
export function deriveErrorType(status: number): string {
  switch (status) {
    case 400:
    case 404:
    case 409:
    case 413:
    case 415:
    case 422:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "insufficient_quota";
    case 403:
      return "permission_error";
    case 429:
      return "rate_limit_error";
    case 502:
    case 503:
    case 504:
      return "upstream_error";
    default:
      return status >= 500 ? "server_error" : "invalid_request_error";
  }
}
