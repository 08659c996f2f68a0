import { GatewayError } from "./gateway-error.js";
import { shortenClientValue } from "./shorten-client-value.js";

export class NoAvailableChannelError extends GatewayError {
  readonly model: string;

  constructor(model: string, options: { cause?: unknown } = {}) {
    super(`no available channel for model ${shortenClientValue(model)}`, {
      ...options,
      status: 503,
      code: "no_available_channel",
    });
    this.model = shortenClientValue(model);
  }
}
