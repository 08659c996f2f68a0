import { GatewayError } from "./gateway-error.js";

export interface InvalidRequestErrorOptions {
  code?: string;
  param?: string;
  cause?: unknown;
}

export class InvalidRequestError extends GatewayError {
  constructor(message: string, options: InvalidRequestErrorOptions = {}) {
    super(message, { ...options, status: 400, code: options.code ?? "invalid_request" });
  }
}
