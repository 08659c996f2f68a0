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
