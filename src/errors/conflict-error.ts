import { GatewayError } from "./gateway-error.js";

export class ConflictError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 409, code: options.code ?? "conflict" });
  }
}
