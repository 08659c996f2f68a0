import type { IncomingHttpHeaders } from "node:http";
import { isRetryableUpstreamStatus, mapUpstreamStatus } from "./classify-upstream-status.js";
import { maskUpstreamSecrets } from "./mask-upstream-secrets.js";
import { readUpstreamErrorMessage } from "./read-upstream-error-message.js";
import { UpstreamFailure } from "./upstream-failure.js";

/**
 * The failure for an upstream's non-2xx answer: its message (the channel's keys and anything key-shaped masked) in our error, retryable for 408,
 * 429 and 5xx, with the upstream's Retry-After when it gave one in seconds. The body is masked here, where it is
 * captured, so no later reader (an error table, a log line, a task record) can meet the key some upstreams echo.
 */
export function upstreamStatusFailure(
  statusCode: number,
  headers: IncomingHttpHeaders,
  bodyText: string,
  channelKeys: readonly string[],
): UpstreamFailure {
  const retryAfterHeader = headers["retry-after"];
  const retryAfterSeconds =
    typeof retryAfterHeader === "string" && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const status = mapUpstreamStatus(statusCode);
  const maskedBodyText = maskUpstreamSecrets(bodyText, channelKeys);
  return new UpstreamFailure(
    `Upstream error (${statusCode}): ${maskUpstreamSecrets(readUpstreamErrorMessage(maskedBodyText), channelKeys)}`,
    isRetryableUpstreamStatus(statusCode),
    {
      status,
      code: status === 429 ? "rate_limit_exceeded" : status >= 500 ? "upstream_error" : "invalid_request",
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      upstreamAnswer: { statusCode, bodyText: maskedBodyText },
    },
  );
}
