import { GatewayError } from "./gateway-error.js";

export class RateLimitError extends GatewayError {
  /** Seconds the client should wait; the envelope middleware sends it as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: { retryAfterSeconds?: number; code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? "rate_limit_exceeded", status: 429, cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
