import { GatewayError } from "./gateway-error.js";

/** The request is fine but clashes with what exists (a name taken, also by a concurrent request). */
export class ConflictError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 409, code: options.code ?? "conflict" });
  }
}
