import { errors as undiciErrors, type Dispatcher, type FormData as UndiciFormData } from "undici";
import type { ClientGoneSignal } from "./client-gone-signal.js";
import type { ChannelAttempt } from "../channels/channel-router.js";
import { getUpstreamPool } from "./get-upstream-dispatcher.js";
import { isRetryableUpstreamStatus, mapUpstreamStatus } from "./classify-upstream-status.js";
import { readUpstreamErrorMessage } from "./read-upstream-error-message.js";
import { UpstreamFailure } from "./upstream-failure.js";

export interface UpstreamRequest {
  method: "GET" | "POST";
  /** Path and query after the channel's base URL, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | UndiciFormData;
  signal: ClientGoneSignal;
}

export type UpstreamResponse = Dispatcher.ResponseData;

function describeTransportError(error: unknown): { message: string; status: number; code: string } {
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { message: "The upstream provider timed out.", status: 504, code: "request_timeout" };
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return { message: "The upstream provider could not be reached in time.", status: 504, code: "request_timeout" };
  }
  return { message: "The upstream provider could not be reached.", status: 502, code: "bad_response" };
}

/**
 * One upstream HTTP call through the channel's keep-alive pool. A non-2xx answer is read, mapped into our error
 * (the upstream's message, never its key) and thrown as UpstreamFailure, retryable for 429/5xx; transport failures
 * are retryable too. A 2xx answer is returned with its body unread, for the caller to stream or parse.
 */
export async function sendUpstreamRequest(attempt: ChannelAttempt, upstreamRequest: UpstreamRequest): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    // Straight to the channel's pool with a path: no URL string to parse on every request.
    const { pool, basePath } = getUpstreamPool(attempt.channel);
    response = await pool.request({
      path: `${basePath}${upstreamRequest.path}`,
      method: upstreamRequest.method,
      headers: upstreamRequest.headers,
      body: upstreamRequest.body as Dispatcher.RequestOptions["body"],
      signal: upstreamRequest.signal,
    });
  } catch (error) {
    if (upstreamRequest.signal.aborted) throw error;
    const described = describeTransportError(error);
    throw new UpstreamFailure(described.message, true, { status: described.status, code: described.code, cause: error });
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response;

  const bodyText = await response.body.text().catch(() => "");
  const retryAfterHeader = response.headers["retry-after"];
  const retryAfterSeconds = typeof retryAfterHeader === "string" && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const status = mapUpstreamStatus(response.statusCode);
  throw new UpstreamFailure(`Upstream error (${response.statusCode}): ${readUpstreamErrorMessage(bodyText)}`, isRetryableUpstreamStatus(response.statusCode), {
    status,
    code: status === 429 ? "rate_limit_exceeded" : status >= 500 ? "upstream_error" : "invalid_request",
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}
