import { splitRoutingModel } from "../providers/native/split-routing-model.js";
import type { TokenRecord } from "../store/tokens/token-record.js";

/**
 * The one reading of a token's model limits, for calls and for model lists alike: with limits enabled, only the
 * models listed (comma separated, exact names) are allowed. A native model's thinking variants
 * (`gmx-2.5-flash-thinking-1024`) count as that model: the suffix is a directive, not another model.
 */
export function isModelAllowed(token: TokenRecord, model: string): boolean {
  if (!token.modelLimitsEnabled) return true;
  // Empty entries (an empty list, a stray comma) name no model, so they must not let an empty model name through.
  const allowed = token.modelLimits
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (allowed.includes(model)) return true;
  const baseModel = splitRoutingModel(model)?.routingModel;
  return baseModel !== undefined && allowed.includes(baseModel);
}
