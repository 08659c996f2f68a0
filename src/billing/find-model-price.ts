import type { ModelPrice } from "../config/gateway-config.js";
import { splitRoutingModel } from "../providers/native/split-routing-model.js";

/**
 * The configured price of a model. A native-family name with a thinking suffix (`gmx-2.5-flash-thinking-1024`)
 * costs what its base model costs unless the operator priced the suffixed name itself: thinking tokens are already
 * billed as output, so the suffix needs no price of its own.
 */
export function findModelPrice(pricing: Record<string, ModelPrice>, model: string): ModelPrice | undefined {
  const exact = pricing[model];
  if (exact) return exact;
  const split = splitRoutingModel(model);
  return split ? pricing[split.routingModel] : undefined;
}
