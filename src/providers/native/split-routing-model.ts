import { parseModelSuffix } from "./parse-model-suffix.js";

export interface RoutingModel {
  /** The name channels are looked up by: the model without its thinking suffix. */
  routingModel: string;
  /** The suffix as the client wrote it (`-thinking-1024`), appended again to the channel's mapped name. */
  suffix: string;
}

/**
 * Thinking suffixes (`-thinking`, `-thinking-<n>`, `-thinking-low|high`, `-nothinking`) are a directive of the
 * native family, not model names of their own: a channel lists `gmx-2.5-flash` and serves all its variants, its
 * model_mapping applies to the base name and the suffix is appended to the mapped name. Pricing, model limits and
 * usage logs keep the full name the client sent. Only `gmx-` names are split: other vendors have real models
 * whose names end in `-thinking` (a `kimi-k2-thinking` is not `kimi-k2`). Undefined when there is nothing to split.
 */
export function splitRoutingModel(model: string): RoutingModel | undefined {
  if (!/^gmx-/i.test(model)) return undefined;
  const { upstreamModel, suffix } = parseModelSuffix(model);
  if (suffix === undefined) return undefined;
  return { routingModel: upstreamModel, suffix: model.slice(upstreamModel.length) };
}
