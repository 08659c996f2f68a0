import type { Dispatcher, FormData as UndiciFormData } from "undici";
import type { ClientGoneSignal } from "../http/client-gone-signal.js";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import { activeTracing } from "../tracing/tracing-hooks.js";
import { getUpstreamPool } from "./get-upstream-dispatcher.js";
import { readUpstreamErrorText } from "./read-upstream-error-text.js";
import { upstreamStatusFailure, upstreamTransportFailure } from "./upstream-failure.js";

export interface UpstreamRequest {
  method: "GET" | "POST";
  /** Path and query after the channel's base URL, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | UndiciFormData;
  signal: ClientGoneSignal;
  /** Return a 3xx answer that names a Location (body unread) instead of failing: the caller follows it, checked. */
  returnRedirects?: boolean;
}

export type UpstreamResponse = Dispatcher.ResponseData;

/**
 * One upstream HTTP call through the channel's keep-alive pool. A non-2xx answer is read, mapped into our error
 * (the upstream's message, never its key) and thrown as UpstreamFailure, retryable for 429/5xx; transport failures
 * are retryable too. A 2xx answer is returned with its body unread, for the caller to stream or parse.
 */
export async function sendUpstreamRequest(
  attempt: ChannelAttempt,
  upstreamRequest: UpstreamRequest,
): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    // Straight to the channel's pool with a path: no URL string to parse on every request.
    const { pool, basePath } = getUpstreamPool(attempt.channel);
    const send = (headers: Record<string, string>) =>
      pool.request({
        path: `${basePath}${upstreamRequest.path}`,
        method: upstreamRequest.method,
        headers,
        body: upstreamRequest.body as Dispatcher.RequestOptions["body"],
        signal: upstreamRequest.signal,
      });
    const tracing = activeTracing();
    response = await (tracing === undefined
      ? send(upstreamRequest.headers)
      : tracing.traceUpstreamCall(
          { method: upstreamRequest.method, channelName: attempt.channel.name, path: upstreamRequest.path },
          upstreamRequest.headers,
          send,
        ));
  } catch (error) {
    if (upstreamRequest.signal.aborted) throw error;
    throw upstreamTransportFailure(error);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response;
  if (
    upstreamRequest.returnRedirects === true &&
    response.statusCode >= 300 &&
    response.statusCode < 400 &&
    typeof response.headers.location === "string"
  )
    return response;

  const bodyText = await readUpstreamErrorText(response.body);
  throw upstreamStatusFailure(response.statusCode, response.headers, bodyText, attempt.channel.keys);
}
