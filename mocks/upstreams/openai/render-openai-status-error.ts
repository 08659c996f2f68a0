import { createOpenaiErrorBody, type OpenaiErrorBody } from "./create-openai-error-body.js";

/** The body OpenAI sends for a status, with its usual wording; `message` overrides the wording. */
export function renderOpenaiStatusError(status: number, message?: string): OpenaiErrorBody {
  switch (status) {
    case 400:
      return createOpenaiErrorBody(message ?? "Invalid request.", "invalid_request_error");
    case 401:
      return createOpenaiErrorBody(
        message ?? "Incorrect API key provided.",
        "invalid_request_error",
        null,
        "invalid_api_key",
      );
    case 403:
      return createOpenaiErrorBody(
        message ?? "Country, region, or territory not supported",
        "request_forbidden",
        null,
        "unsupported_country_region_territory",
      );
    case 404:
      return createOpenaiErrorBody(message ?? "Not found.", "invalid_request_error");
    case 429:
      return createOpenaiErrorBody(
        message ?? "Rate limit reached for requests. Please try again later.",
        "requests",
        null,
        "rate_limit_exceeded",
      );
    case 503:
      return createOpenaiErrorBody(
        message ?? "The engine is currently overloaded, please try again later.",
        "server_error",
      );
    default:
      return createOpenaiErrorBody(
        message ?? "The server had an error while processing your request. Sorry about that!",
        status >= 500 ? "server_error" : "invalid_request_error",
      );
  }
}
