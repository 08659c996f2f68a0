import type { IncomingHttpHeaders } from "node:http";
import { errors as undiciErrors } from "undici";
import { GatewayError } from "../errors/gateway-error.js";
import type { VideoTaskSnapshot } from "../providers/contract/video-task-capability.js";
import { maskUpstreamSecrets } from "./mask-upstream-secrets.js";

// What an upstream failure is: the one error class the transport throws, how an upstream's error status or a
// broken connection becomes one, and the few questions the layers above ask of it (retry on another channel? is
// the task gone?).

/**
 * An upstream call that failed before anything reached the client. `retryable` failures (connect errors,
 * timeouts, 429, 5xx) send the relay to the next channel; others are answered at once.
 */
export class UpstreamFailure extends GatewayError {
  constructor(
    message: string,
    readonly retryable: boolean,
    options: {
      status: number;
      code: string;
      type?: string;
      param?: string;
      cause?: unknown;
      retryAfterSeconds?: number;
      upstreamAnswer?: UpstreamErrorAnswer;
    },
  ) {
    super(message, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamAnswer = options.upstreamAnswer;
  }
  readonly retryAfterSeconds: number | undefined;
  /** The upstream's own HTTP status, when it answered (a task poller tells "gone" from "busy" by it). */
  get upstreamStatusCode(): number | undefined {
    return this.upstreamAnswer?.statusCode;
  }
  /**
   * The upstream's error answer when there was one (status and the start of its body), so a capability whose
   * error table depends on the provider's own codes (images: safety blocks, bad parameters) can map it further.
   */
  readonly upstreamAnswer: UpstreamErrorAnswer | undefined;
}

export interface UpstreamErrorAnswer {
  statusCode: number;
  bodyText: string;
}

/** Which upstream statuses another channel might answer better: rate limits and server-side failures. */
export function isRetryableUpstreamStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Our status for an upstream's error status: client errors pass through; the rest is a gateway failure. */
export function mapUpstreamStatus(status: number): number {
  if (status === 401 || status === 403) return 502; // our upstream credential is wrong: the caller can't fix that
  if (status === 429) return 429;
  if (status >= 400 && status < 500) return status;
  if (status === 504) return 504;
  return 502;
}

/**
 * The human message inside an upstream error body, whichever envelope it uses (OpenAI `{error:{message}}`,
 * native `{error:{message,status}}`, or plain text). Upstream keys never appear in these bodies, but the text is
 * cut short so a misbehaving upstream cannot flood our clients or logs.
 */
export function readUpstreamErrorMessage(bodyText: string): string {
  try {
    const parsed = JSON.parse(bodyText) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === "object" && typeof parsed.error?.message === "string")
      return parsed.error.message.slice(0, 500);
    if (typeof parsed.error === "string") return parsed.error.slice(0, 500);
    if (typeof parsed.message === "string") return parsed.message.slice(0, 500);
  } catch {
    // not JSON: fall through to the text itself
  }
  return bodyText.slice(0, 200) || "no body";
}

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

/**
 * The largest upstream event held while it arrives, in characters where the stream is parsed as text and in bytes
 * in the native pass-through (the same for the ASCII of JSON and base64): native image streams carry each image
 * whole, base64, in one event (a few MiB to tens of MiB). An upstream that sends more without ending the event is
 * stopped there, instead of growing the gateway's memory for as long as it keeps sending.
 */
export const maximumUpstreamEventSize = 64 * 1024 * 1024;

/** The failure that stops a stream whose event grew past `limit` (in `unit`) without ending: a 502, not retried. */
export function oversizedUpstreamEventFailure(
  limit: number,
  unit: "characters" | "bytes",
  cause?: unknown,
): UpstreamFailure {
  return new UpstreamFailure(
    `The upstream sent an event larger than ${limit} ${unit}; the stream was stopped there.`,
    false,
    {
      status: 502,
      code: "bad_response",
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/** The upstream answered 404 or 410 for a task: it no longer knows it (VideoTaskCapability.poll's contract). */
export function isUpstreamTaskGone(error: unknown): boolean {
  return error instanceof UpstreamFailure && (error.upstreamStatusCode === 404 || error.upstreamStatusCode === 410);
}

/** The terminal snapshot `poll` returns for a task the upstream no longer knows, instead of throwing. */
export function createUpstreamTaskGoneSnapshot(
  message = "The upstream no longer knows this video task.",
): VideoTaskSnapshot {
  return { status: "failed", upstreamStatus: "UNKNOWN", error: { code: "upstream_task_not_found", message } };
}
