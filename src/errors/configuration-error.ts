import { GatewayError } from "./gateway-error.js";

/** A setting the gateway cannot run with; raised at startup, never caused by a client. */
export class ConfigurationError extends GatewayError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 500, code: "configuration_error", type: "server_error" });
  }
}
