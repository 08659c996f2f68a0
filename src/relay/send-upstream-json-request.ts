import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { ChannelAttempt } from "../channels/channel-router.js";
import { getUpstreamPool } from "./get-upstream-dispatcher.js";
import type { UpstreamRequest } from "./send-upstream-request.js";
import { UpstreamFailure } from "./upstream-failure.js";
import { upstreamStatusFailure } from "./upstream-status-failure.js";
import { upstreamTransportFailure } from "./upstream-transport-failure.js";

interface BufferedAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Raised inside the handler when the answer's headers came but its body broke off: not a transport failure. */
class BodyBrokeOff extends Error {}

/**
 * Sends the request and collects the whole answer in memory: an undici dispatch handler that keeps the body's
 * chunks as they come, where `request()` would build a Readable stream, push every chunk through it and consume
 * it again for `.json()`. The pool's connect, header and idle timeouts apply as for `request()`.
 */
function dispatchBuffered(attempt: ChannelAttempt, upstreamRequest: UpstreamRequest): Promise<BufferedAnswer> {
  const { pool, basePath } = getUpstreamPool(attempt.channel);
  const signal = upstreamRequest.signal;
  return new Promise<BufferedAnswer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    const onClientGone = () => controller?.abort(signal.reason as Error);
    const finish = () => signal.off("abort", onClientGone);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(requestController) {
        controller = requestController;
        if (signal.aborted) requestController.abort(signal.reason as Error);
        else signal.on("abort", onClientGone);
      },
      onResponseStart(_controller, status, responseHeaders) {
        statusCode = status;
        headers = responseHeaders as IncomingHttpHeaders;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        finish();
        resolve({ statusCode, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      },
      onResponseError(_controller, error) {
        finish();
        // A status means the headers came: what broke was the body.
        reject(statusCode !== 0 && !signal.aborted ? new BodyBrokeOff(error.message, { cause: error }) : error);
      },
    };
    pool.dispatch(
      {
        path: `${basePath}${upstreamRequest.path}`,
        method: upstreamRequest.method,
        headers: upstreamRequest.headers,
        body: upstreamRequest.body as Dispatcher.DispatchOptions["body"],
      },
      handler,
    );
  });
}

/**
 * One non-streaming upstream call whose 2xx answer is JSON, read whole and parsed. A non-2xx answer becomes our
 * error as in `sendUpstreamRequest`; a call that got no answer is a retryable transport failure; a 2xx body
 * that breaks off or is not JSON is the upstream's fault while nothing reached the client yet, so it is a
 * retryable 502 too (another channel may answer properly). A client that left gets its abort reason back.
 */
export async function sendUpstreamJsonRequest<Answer>(attempt: ChannelAttempt, upstreamRequest: UpstreamRequest): Promise<Answer> {
  let answer: BufferedAnswer;
  try {
    answer = await dispatchBuffered(attempt, upstreamRequest);
  } catch (error) {
    if (upstreamRequest.signal.aborted) throw error;
    if (error instanceof BodyBrokeOff) {
      const timedOut = upstreamTransportFailure(error.cause);
      if (timedOut.status === 504) throw timedOut;
      throw new UpstreamFailure("The upstream answer broke off before it was complete.", true, { status: 502, code: "bad_response", cause: error.cause });
    }
    throw upstreamTransportFailure(error);
  }
  const text = answer.body.toString("utf8");
  if (answer.statusCode < 200 || answer.statusCode >= 300) throw upstreamStatusFailure(answer.statusCode, answer.headers, text);
  try {
    // A byte order mark is allowed before JSON text (RFC 8259 §8.1 lets a parser ignore it); JSON.parse is not.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Answer;
  } catch (error) {
    throw new UpstreamFailure("The upstream answered with a body that is not JSON.", true, { status: 502, code: "bad_response", cause: error });
  }
}
