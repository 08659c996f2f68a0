import { InvalidRequestError } from "../../errors/gateway-error.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import type { ReadProviderImageError } from "./provider-image-error.js";
import { redactSecrets } from "./redact-secrets.js";

export interface ImageFailureOptions {
  /** The provider's error envelope reader. */
  readError: ReadProviderImageError;
  /** The channel's keys, masked in any message passed on. */
  secrets: readonly string[];
}

/**
 * One failed image attempt → the images API's documented error table, the same for every family:
 * a safety refusal is 400 `prompt_blocked`; another 4xx the provider blamed on the request is 400
 * `invalid_parameter` with the provider's message (keys masked); 429 stays `rate_limit_exceeded` with its
 * Retry-After; timeouts are 504 `request_timeout`; a 5xx, a refused channel credential (our fault, not the
 * caller's) or no answer at all is 503 `bad_response`. Retryable failures stay retryable, so the relay still tries
 * the next channel before this reaches the client. Anything else (our own errors, `empty_response`) passes as is.
 */
export function toImageFailure(error: unknown, options: ImageFailureOptions): unknown {
  if (!(error instanceof UpstreamFailure)) return error;
  const answer = error.upstreamAnswer;
  if (answer === undefined) {
    if (error.status === 502 && error.code === "bad_response")
      return new UpstreamFailure("The upstream provider is unavailable.", error.retryable, {
        status: 503,
        code: "bad_response",
        cause: error,
      });
    return error;
  }
  const provider = options.readError(answer.bodyText);
  const said = provider ? redactSecrets(provider.message, options.secrets) : "";
  const status = answer.statusCode;
  if (provider?.blocked)
    return new InvalidRequestError(
      `The prompt or reference image was blocked by the safety filter${provider.code ? ` (${provider.code})` : ""}.`,
      { code: "prompt_blocked", cause: error },
    );
  if (status === 429)
    return new UpstreamFailure(`The upstream provider's rate limit was hit${said ? `: ${said}` : "."}`, true, {
      status: 429,
      code: "rate_limit_exceeded",
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      cause: error,
    });
  if (status === 408 || status === 504)
    return new UpstreamFailure("The upstream provider timed out.", true, {
      status: 504,
      code: "request_timeout",
      cause: error,
    });
  if (!provider?.channelFault && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 404)
    return new InvalidRequestError(said || `The upstream provider refused a parameter (HTTP ${status}).`, {
      code: "invalid_parameter",
      ...(provider?.param ? { param: provider.param } : {}),
      cause: error,
    });
  return new UpstreamFailure(`The upstream provider is unavailable (HTTP ${status}).`, true, {
    status: 503,
    code: "bad_response",
    cause: error,
  });
}
