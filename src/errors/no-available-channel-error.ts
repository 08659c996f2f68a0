import { GatewayError } from "./gateway-error.js";

export class NoAvailableChannelError extends GatewayError {
  readonly model: string;

  constructor(model: string, options: { cause?: unknown } = {}) {
    super(`no available channel for model ${model}`, {
      ...options,
      status: 503,
      code: "no_available_channel",
    });
    this.model = model;
  }
}
