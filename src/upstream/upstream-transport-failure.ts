import { errors as undiciErrors } from "undici";
import { UpstreamFailure } from "./upstream-failure.js";

/**
 * The failure for an upstream call that got no complete answer (refused, reset, timed out): retryable, since
 * another channel may answer, as 504 for timeouts and 502 otherwise.
 */
export function upstreamTransportFailure(error: unknown): UpstreamFailure {
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamFailure("The upstream provider timed out.", true, {
      status: 504,
      code: "request_timeout",
      cause: error,
    });
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new UpstreamFailure("The upstream provider could not be reached in time.", true, {
      status: 504,
      code: "request_timeout",
      cause: error,
    });
  }
  return new UpstreamFailure("The upstream provider could not be reached.", true, {
    status: 502,
    code: "bad_response",
    cause: error,
  });
}
