import { type ModelNameResolution, resolveListedModelName } from "../models/resolve-model-name.js";
import type { TokenRecord } from "../store/tokens/token-record.js";

/**
 * The one reading of a token's model limits, for calls and for model lists alike: with limits enabled, only the
 * models listed (comma separated, exact names) are allowed. A name resolved to a base model with a thinking suffix
 * (`gmx-2.5-flash-thinking-1024` → `gmx-2.5-flash`) counts as that model: the suffix is a directive, not another
 * model, and the request is priced as the base model too. A plain name is read as a listed one (model lists).
 */
export function isModelAllowed(
  token: TokenRecord,
  model: string | Pick<ModelNameResolution, "model" | "baseModel">,
): boolean {
  if (!token.modelLimitsEnabled) return true;
  // Empty entries (an empty list, a stray comma) name no model, so they must not let an empty model name through.
  const allowed = token.modelLimits
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const { model: name, baseModel } = typeof model === "string" ? resolveListedModelName(model, {}) : model;
  return allowed.includes(name) || allowed.includes(baseModel);
}
