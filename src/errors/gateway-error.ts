import { deriveErrorType } from "./derive-error-type.js";

export interface GatewayErrorOptions {
  /** HTTP status the envelope middleware answers with. */
  status: number;
  /** Machine-readable code, e.g. `invalid_request`. */
  code: string;
  /** OpenAI-style error type; derived from the status when omitted. */
  type?: string;
  /** Request field the error is about, when there is one. */
  param?: string;
  cause?: unknown;
}

/**
 * Base of every error the gateway raises on purpose. One middleware per API
 * generation maps it to that generation's envelope, so handlers never build
 * error bodies themselves.
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly param: string | undefined;

  constructor(
    message: string,
    readonly options: GatewayErrorOptions,
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.code = options.code;
    this.type = options.type ?? deriveErrorType(options.status);
    this.param = options.param;
  }
}
