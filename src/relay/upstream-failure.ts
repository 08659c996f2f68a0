import { GatewayError } from "../errors/gateway-error.js";

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
      /** The upstream's own HTTP status, when it answered (a task poller tells "gone" from "busy" by it). */
      upstreamStatusCode?: number;
    },
  ) {
    super(message, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstreamStatusCode = options.upstreamStatusCode;
  }
  readonly retryAfterSeconds: number | undefined;
  readonly upstreamStatusCode: number | undefined;
}
