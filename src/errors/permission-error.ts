import { GatewayError } from "./gateway-error.js";

export class PermissionError extends GatewayError {
  constructor(message: string, options: { code?: string; param?: string; cause?: unknown } = {}) {
    super(message, { ...options, status: 403, code: options.code ?? "permission_denied" });
  }
}
