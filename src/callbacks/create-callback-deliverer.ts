import { request } from "undici";
import { createCheckedDispatcher, RefusedAddressError } from "../net/create-checked-dispatcher.js";
import { signCallbackBody } from "./sign-callback-body.js";

export interface CallbackDelivery {
  taskId: string;
  /** The client's `metadata.callback_url`. */
  url: string;
  /** The task's wrapped query answer, serialized once: the bytes signed are the bytes sent. */
  body: string;
  /** The user's signing secret, decrypted. */
  secret: string;
}

export interface CallbackDelivererOptions {
  /** Public addresses, plus the operator's `fetch.allow_private` ranges; decides every connection. */
  isAllowedAddress(address: string): boolean;
  /** Budget of one try, redirects included (default 10 s). */
  timeoutMs?: number;
  /** Unix seconds, for the signature timestamp. */
  now(): number;
}

export interface CallbackDeliverer {
  /**
   * One try, not recorded: the durable sender (createTaskCallbackSender) records it and schedules the next one from
   * the task row, so retries survive a restart.
   */
  tryOnce(delivery: CallbackDelivery): Promise<CallbackTryOutcome>;
  /** Aborts the tries in flight (they come back `aborted`) and closes the connections. */
  close(): Promise<void>;
}

const maximumRedirects = 3;
const followedRedirects = new Set([307, 308]);

export interface CallbackTryOutcome {
  statusCode: number | null;
  errorMessage: string | null;
  succeeded: boolean;
  /** A refused address or an unusable URL is refused again on every try. */
  final: boolean;
  /** The deliverer closed during the try: it does not count, and the next process tries again. */
  aborted?: boolean;
}

/**
 * One try of a task callback: a POST of the task's answer, signed (`X-Signature-Timestamp`, `X-Signature: sha256=…`,
 * a fresh timestamp on every try). The address is checked where the socket opens, on every try and every redirect
 * (only 307 and 308, which keep the method and body, are followed). Messages name the host only, because a callback
 * URL may carry a token in its query. Retries, their waits and the records are the durable sender's
 * (create-task-callback-sender.ts).
 */
export function createCallbackDeliverer(options: CallbackDelivererOptions): CallbackDeliverer {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const dispatcher = createCheckedDispatcher({
    isAllowedAddress: options.isAllowedAddress,
    connectTimeoutMs: timeoutMs,
  });
  const closing = new AbortController();

  async function tryOnce(delivery: CallbackDelivery): Promise<CallbackTryOutcome> {
    const timestamp = options.now();
    const headers = {
      "content-type": "application/json",
      "user-agent": "ai-api-gateway-callbacks",
      "x-signature-timestamp": String(timestamp),
      "x-signature": signCallbackBody(delivery.secret, timestamp, delivery.body),
    };
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), closing.signal]);
    let current: URL;
    try {
      current = parseCallbackUrl(delivery.url);
    } catch (error) {
      return { statusCode: null, errorMessage: (error as Error).message, succeeded: false, final: true };
    }
    for (let hop = 0; ; hop += 1) {
      let statusCode: number;
      let location: string | string[] | undefined;
      try {
        const response = await request(current, { dispatcher, method: "POST", headers, body: delivery.body, signal });
        statusCode = response.statusCode;
        location = response.headers.location;
        await response.body.dump().catch(() => undefined);
      } catch (error) {
        if (closing.signal.aborted)
          return { statusCode: null, errorMessage: null, succeeded: false, final: false, aborted: true };
        const refused = findRefusal(error);
        if (refused !== undefined)
          return {
            statusCode: null,
            errorMessage: `${current.host} is refused: ${refused.message}`,
            succeeded: false,
            final: true,
          };
        const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
        const reason = timedOut
          ? "timed out"
          : `could not be reached (${error instanceof Error ? error.message : String(error)})`;
        return { statusCode: null, errorMessage: `${current.host} ${reason}`, succeeded: false, final: false };
      }
      if (statusCode >= 200 && statusCode < 300)
        return { statusCode, errorMessage: null, succeeded: true, final: false };
      if (followedRedirects.has(statusCode) && typeof location === "string" && hop < maximumRedirects) {
        try {
          current = parseCallbackUrl(new URL(location, current).toString());
        } catch (error) {
          return { statusCode, errorMessage: (error as Error).message, succeeded: false, final: true };
        }
        continue;
      }
      return {
        statusCode,
        errorMessage: `${current.host} answered HTTP ${statusCode}`,
        succeeded: false,
        final: false,
      };
    }
  }

  return {
    tryOnce,
    async close() {
      closing.abort();
      await dispatcher.close();
    },
  };
}

function parseCallbackUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error("the callback URL is not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`the callback URL scheme ${url.protocol} is not allowed; use http or https`);
  return url;
}

function findRefusal(error: unknown): RefusedAddressError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1)
    if (current instanceof RefusedAddressError) return current;
  return undefined;
}
