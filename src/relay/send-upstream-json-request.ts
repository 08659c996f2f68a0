import type { ChannelAttempt } from "../channels/channel-router.js";
import { maximumUpstreamAnswerSize, sendUpstreamBufferedRequest } from "./send-upstream-buffered-request.js";
import type { UpstreamRequest } from "./send-upstream-request.js";
import { UpstreamFailure } from "./upstream-failure.js";

/**
 * One non-streaming upstream call whose 2xx answer is JSON, read whole (sendUpstreamBufferedRequest: its failures)
 * and parsed once. A 2xx body that is not JSON is the upstream's fault while nothing reached the client yet, so it
 * is a retryable 502 (another channel may answer properly).
 */
export async function sendUpstreamJsonRequest<Answer>(
  attempt: ChannelAttempt,
  upstreamRequest: UpstreamRequest,
  maximumAnswerSize = maximumUpstreamAnswerSize,
): Promise<Answer> {
  const text = (await sendUpstreamBufferedRequest(attempt, upstreamRequest, maximumAnswerSize)).body.toString("utf8");
  try {
    // A byte order mark is allowed before JSON text (RFC 8259 §8.1 lets a parser ignore it); JSON.parse is not.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Answer;
  } catch (error) {
    throw new UpstreamFailure("The upstream answered with a body that is not JSON.", true, {
      status: 502,
      code: "bad_response",
      cause: error,
    });
  }
}
