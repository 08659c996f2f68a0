import { GatewayError } from "./gateway-error.js";

/**
 * The client closed its connection before the answer was complete. Ordinary traffic, not a fault: there is no one
 * left to answer, so it is logged at info with its request id and counted apart from the answered requests. The
 * status is the one proxies use for it (499, "client closed request"); it is never sent.
 */
export class ClientGoneError extends GatewayError {
  constructor() {
    super("The client disconnected before the answer was complete.", {
      status: 499,
      code: "client_closed_request",
    });
  }
}
