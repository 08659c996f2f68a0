import { PermissionError } from "./permission-error.js";
import { shortenClientValue } from "./shorten-client-value.js";

/**
 * A served model the operator gave no price: refused before anything is reserved or sent upstream, or its usage
 * would be free on every key (`pricing.allow_unpriced: true` opts out).
 */
export class UnpricedModelError extends PermissionError {
  constructor(model: string) {
    super(
      `model ${shortenClientValue(model)} has no price: the administrator has not priced it, so it cannot be used.`,
      { code: "model_not_priced", param: "model" },
    );
  }
}
