import type { ModelPrice } from "../config/gateway-config.js";
import { resolveListedModelName } from "./resolve-model-name.js";

/** The served models that have no price of their own or of the base model they stand for. */
export function listUnpricedModels(servedModels: readonly string[], pricing: Record<string, ModelPrice>): string[] {
  return servedModels.filter((model) => resolveListedModelName(model, pricing).price === undefined);
}
