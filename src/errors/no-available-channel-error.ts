import { GatewayError } from "./gateway-error.js";
import { NotFoundError } from "./not-found-error.js";
import { shortenClientValue } from "./shorten-client-value.js";

const noAvailableChannelMessage = (model: string) => `no available channel for model ${shortenClientValue(model)}`;

/**
 * A model some channel of the caller's groups serves, but none can take the request now (every one disabled):
 * 503 with Retry-After, so a client retries later. A model nobody serves is a ModelNotFoundError instead.
 */
export class NoAvailableChannelError extends GatewayError {
  readonly model: string;
  readonly retryAfterSeconds: number;

  constructor(model: string, options: { retryAfterSeconds: number; cause?: unknown }) {
    super(noAvailableChannelMessage(model), {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      status: 503,
      code: "no_available_channel",
    });
    this.model = shortenClientValue(model);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * No channel of any group the caller may use serves the model: a client's mistake (a typo, a placeholder), so a
 * 404 that OpenAI-style clients do not retry, with the same message text.
 */
export class ModelNotFoundError extends NotFoundError {
  readonly model: string;

  constructor(model: string) {
    super(noAvailableChannelMessage(model), { code: "model_not_found", param: "model" });
    this.model = shortenClientValue(model);
  }
}
