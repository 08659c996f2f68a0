import { GatewayError } from "./gateway-error.js";

/** A request body past the size limit (the same words the body parser's refusal gets). */
export class PayloadTooLargeError extends GatewayError {
  constructor() {
    super("Request body is larger than the size limit.", { status: 413, code: "payload_too_large" });
  }
}
