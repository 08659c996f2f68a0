import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
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
  return (await sendUpstreamJsonRequestKeepingBytes<Answer>(attempt, upstreamRequest, maximumAnswerSize)).answer;
}

/**
 * As sendUpstreamJsonRequest, and the answer's JSON bytes too (without a byte order mark), for an adapter that
 * hands the upstream's answer back unchanged: sending those bytes spares re-serialising an answer that may hold
 * tens of megabytes of base64 (and the copy of it Node would make to write a string).
 */
export async function sendUpstreamJsonRequestKeepingBytes<Answer>(
  attempt: ChannelAttempt,
  upstreamRequest: UpstreamRequest,
  maximumAnswerSize = maximumUpstreamAnswerSize,
): Promise<{ answer: Answer; bytes: Buffer }> {
  const body = (await sendUpstreamBufferedRequest(attempt, upstreamRequest, maximumAnswerSize)).body;
  // A byte order mark is allowed before JSON text (RFC 8259 §8.1 lets a parser ignore it); JSON.parse is not.
  const bytes = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? body.subarray(3) : body;
  try {
    return { answer: JSON.parse(bytes.toString("utf8")) as Answer, bytes };
  } catch (error) {
    throw new UpstreamFailure("The upstream answered with a body that is not JSON.", true, {
      status: 502,
      code: "bad_response",
      cause: error,
    });
  }
}
