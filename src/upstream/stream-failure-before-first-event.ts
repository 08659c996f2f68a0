import { errors as undiciErrors } from "undici";
import { UpstreamFailure } from "./upstream-failure.js";
import { upstreamTransportFailure } from "./upstream-transport-failure.js";

/**
 * What an upstream stream that failed before anything reached the client hands back to the relay, which may then
 * try another channel or answer in JSON: our own failures as they are; a stream that timed out or broke off before
 * its first event as a retryable failure, as if the connection had failed.
 */
export function streamFailureBeforeFirstEvent(error: unknown): unknown {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof undiciErrors.BodyTimeoutError) return upstreamTransportFailure(error);
  return new UpstreamFailure("The upstream stream broke off before its first event.", true, {
    status: 502,
    code: "bad_response",
    cause: error,
  });
}
