import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import { getUpstreamPool } from "./get-upstream-dispatcher.js";
import { maximumUpstreamErrorBodySize } from "./read-upstream-error-text.js";
import type { UpstreamRequest } from "./send-upstream-request.js";
import { UpstreamFailure, upstreamStatusFailure, upstreamTransportFailure } from "./upstream-failure.js";
import { activeTracing } from "../tracing/tracing-hooks.js";

/**
 * The largest answer body read into memory: several base64 images fit (tens of MiB each at most), and a JSON text
 * this long still fits in one string (V8 stops at 512 Mi characters). The reading stops past it.
 */
export const maximumUpstreamAnswerSize = 256 * 1024 * 1024;

/** Answers at least this large with a Content-Length are read into one buffer of that size as they come. */
const preallocatedAnswerSize = 64 * 1024;

/** A whole 2xx answer, read into memory. */
export interface UpstreamBufferedAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface BufferedAnswer extends UpstreamBufferedAnswer {
  /** The body went past its limit and was not read further: `body` is empty, or an error's first bytes. */
  tooLarge: boolean;
}

/** Raised inside the handler when the answer's headers came but its body broke off: not a transport failure. */
class BodyBrokeOff extends Error {}

/**
 * Sends the request and collects the whole answer in memory: an undici dispatch handler that keeps the body's
 * chunks as they come, where `request()` would build a Readable stream, push every chunk through it and consume
 * it again (`.json()`, `.arrayBuffer()`). The pool's connect, header and idle timeouts apply as for `request()`.
 */
function dispatchBuffered(
  attempt: ChannelAttempt,
  upstreamRequest: UpstreamRequest,
  maximumAnswerSize: number,
): Promise<BufferedAnswer> {
  const tracing = activeTracing();
  if (tracing === undefined) return dispatchBufferedWith(attempt, upstreamRequest, maximumAnswerSize);
  return tracing.traceUpstreamCall(
    { method: upstreamRequest.method, channelName: attempt.channel.name, path: upstreamRequest.path },
    upstreamRequest.headers,
    (headers) => dispatchBufferedWith(attempt, { ...upstreamRequest, headers }, maximumAnswerSize),
  );
}

function dispatchBufferedWith(
  attempt: ChannelAttempt,
  upstreamRequest: UpstreamRequest,
  maximumAnswerSize: number,
): Promise<BufferedAnswer> {
  const { pool, basePath } = getUpstreamPool(attempt.channel);
  const signal = upstreamRequest.signal;
  return new Promise<BufferedAnswer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    // A large answer of declared length is copied into one buffer as it comes: no chunk list held alongside the
    // concatenated copy (a 20 MB base64 image would otherwise peak at twice its size), and socket buffers released.
    let whole: Buffer | undefined;
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
        const declaredSize = Number(headers["content-length"]);
        if (
          status >= 200 &&
          status < 300 &&
          Number.isSafeInteger(declaredSize) &&
          declaredSize >= preallocatedAnswerSize &&
          declaredSize <= maximumAnswerSize
        )
          whole = Buffer.allocUnsafe(declaredSize);
      },
      onResponseData(responseController, chunk) {
        if (tooLarge) return;
        if (whole !== undefined) {
          if (size + chunk.length <= whole.length) {
            chunk.copy(whole, size);
            size += chunk.length;
            return;
          }
          // More than the upstream declared: what came so far joins the chunks and the usual rules apply.
          chunks.push(whole.subarray(0, size));
          whole = undefined;
        }
        const isError = statusCode < 200 || statusCode >= 300;
        const limit = isError ? maximumUpstreamErrorBodySize : maximumAnswerSize;
        if (size + chunk.length <= limit) {
          chunks.push(chunk);
          size += chunk.length;
          return;
        }
        // An error keeps the start of its body for the message; an answer too large is dropped whole.
        if (isError) chunks.push(chunk.subarray(0, limit - size));
        else chunks.length = 0;
        tooLarge = true;
        responseController.abort(new Error(`answer larger than ${limit} bytes`));
      },
      onResponseEnd() {
        finish();
        resolve({
          statusCode,
          headers,
          body:
            whole !== undefined ? whole.subarray(0, size) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
          tooLarge: false,
        });
      },
      onResponseError(_controller, error) {
        finish();
        if (tooLarge) {
          resolve({ statusCode, headers, body: Buffer.concat(chunks), tooLarge });
          return;
        }
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
 * One non-streaming upstream call whose 2xx answer is read whole. A non-2xx answer becomes our error as in
 * `sendUpstreamRequest`; a call that got no answer is a retryable transport failure; a 2xx body that breaks off is
 * the upstream's fault while nothing reached the client yet, so it is a retryable 502 too (another channel may
 * answer properly). An answer larger than `maximumAnswerSize` bytes is not read further: a 502 that is not retried.
 * An error answer is read up to maximumUpstreamErrorBodySize for its message. A client that left gets its abort
 * reason back.
 */
export async function sendUpstreamBufferedRequest(
  attempt: ChannelAttempt,
  upstreamRequest: UpstreamRequest,
  maximumAnswerSize = maximumUpstreamAnswerSize,
): Promise<UpstreamBufferedAnswer> {
  let answer: BufferedAnswer;
  try {
    answer = await dispatchBuffered(attempt, upstreamRequest, maximumAnswerSize);
  } catch (error) {
    if (upstreamRequest.signal.aborted) throw error;
    if (error instanceof BodyBrokeOff) {
      const timedOut = upstreamTransportFailure(error.cause);
      if (timedOut.status === 504) throw timedOut;
      throw new UpstreamFailure("The upstream answer broke off before it was complete.", true, {
        status: 502,
        code: "bad_response",
        cause: error.cause,
      });
    }
    throw upstreamTransportFailure(error);
  }
  if (answer.statusCode < 200 || answer.statusCode >= 300)
    throw upstreamStatusFailure(answer.statusCode, answer.headers, answer.body.toString("utf8"), attempt.channel.keys);
  if (answer.tooLarge) {
    // The same request would most likely get as large an answer from another channel: not retried.
    throw new UpstreamFailure(
      `The upstream answer is larger than ${maximumAnswerSize} bytes; the gateway does not relay answers that large.`,
      false,
      {
        status: 502,
        code: "bad_response",
      },
    );
  }
  return answer;
}
