import { errors as undiciErrors } from "undici";
import { nativeErrorStatus } from "../../../http/native-error-status.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";

/**
 * The last event of a native stream that failed after its 200 was sent: the native error envelope as one `data:`
 * line (spec: StreamGenerateContentOk). A body timeout is 504 DEADLINE_EXCEEDED; any other break is 502 UNAVAILABLE,
 * with the gateway's own reason when it stopped the stream (an event too large).
 */
export function formatNativeErrorEvent(cause: unknown): string {
  const timedOut = cause instanceof undiciErrors.BodyTimeoutError;
  const code = timedOut ? 504 : 502;
  const message = timedOut
    ? "The upstream provider timed out while streaming."
    : cause instanceof UpstreamFailure
      ? cause.message
      : "The upstream stream ended unexpectedly.";
  return `data: ${JSON.stringify({ error: { code, message, status: nativeErrorStatus(code) } })}\n\n`;
}
