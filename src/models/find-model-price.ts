import type { ModelPrice } from "../config/gateway-config.js";

/**
 * The operator's price entry of exactly this name. Own keys only: a model called `constructor` or `toString` is a
 * name like any other, never a price inherited from Object.
 */
export function findModelPrice(pricing: Record<string, ModelPrice>, model: string): ModelPrice | undefined {
  return Object.hasOwn(pricing, model) ? pricing[model] : undefined;
}
