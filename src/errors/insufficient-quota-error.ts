import { GatewayError } from "./gateway-error.js";

export class InsufficientQuotaError extends GatewayError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 402, code: "insufficient_quota" });
  }
}
