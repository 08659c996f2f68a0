import { PermissionError } from "../errors/gateway-error.js";
import type { ModelNameResolution } from "../models/resolve-model-name.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import { apiKeyMessages } from "./api-key-messages.js";
import { isModelAllowed } from "./is-model-allowed.js";

/** Refuses a model the token's model limits do not allow (isModelAllowed). */
export function assertModelAllowed(
  token: TokenRecord,
  model: string | Pick<ModelNameResolution, "model" | "baseModel">,
): void {
  if (!isModelAllowed(token, model)) {
    const name = typeof model === "string" ? model : model.model;
    throw new PermissionError(apiKeyMessages.modelNotAllowed(name), { code: "model_not_allowed", param: "model" });
  }
}
