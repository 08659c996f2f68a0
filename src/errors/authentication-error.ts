import { GatewayError } from "./gateway-error.js";

export class AuthenticationError extends GatewayError {
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 401, code: options.code ?? "invalid_authentication" });
  }
}
