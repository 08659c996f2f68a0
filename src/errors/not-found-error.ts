import { GatewayError } from "./gateway-error.js";

export class NotFoundError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 404, code: options.code ?? "not_found" });
  }
}
