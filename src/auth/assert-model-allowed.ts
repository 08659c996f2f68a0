import { splitRoutingModel } from "../providers/native/split-routing-model.js";
import { PermissionError } from "../errors/permission-error.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import { apiKeyMessages } from "./api-key-messages.js";

/**
 * A token with model limits enabled may call only the models it lists (comma separated, exact names). A native
 * model's thinking variants (`gmx-2.5-flash-thinking-1024`) count as that model: the suffix is a directive.
 */
export function assertModelAllowed(token: TokenRecord, model: string): void {
  if (!token.modelLimitsEnabled) return;
  // Empty entries (an empty list, a stray comma) name no model, so they must not let an empty model name through.
  const allowed = token.modelLimits
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const baseModel = splitRoutingModel(model)?.routingModel;
  if (!allowed.includes(model) && !(baseModel && allowed.includes(baseModel)))
    throw new PermissionError(apiKeyMessages.modelNotAllowed(model), { code: "model_not_allowed", param: "model" });
}
