import { GatewayError } from "./gateway-error.js";

/**
 * A stored key could not be decrypted: it was altered, is malformed, or was
 * written under another GATEWAY_SECRET. Deliberately says nothing more.
 */
export class KeyDecryptionError extends GatewayError {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(`stored key cannot be decrypted: ${reason}`, {
      ...options,
      status: 500,
      code: "key_decryption_failed",
      type: "server_error",
    });
  }
}
