import { GatewayError } from "./gateway-error.js";

export interface UpstreamErrorOptions {
  /** Status to answer with instead of 502, e.g. 504 on an upstream timeout. */
  status?: number;
  code?: string;
  type?: string;
  param?: string;
  cause?: unknown;
}

export class UpstreamError extends GatewayError {
  constructor(message: string, options: UpstreamErrorOptions = {}) {
    super(message, { ...options, status: options.status ?? 502, code: options.code ?? "upstream_error" });
  }
}
