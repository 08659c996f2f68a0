import type { components } from "../../../generated/types/native.js";
import { describeThinkingModel } from "./describe-thinking-model.js";
import { parseModelSuffix } from "./parse-model-suffix.js";
import { resolveThinkingConfig } from "./resolve-thinking-config.js";

type GenerateContentRequest = components["schemas"]["GenerateContentRequest"];

export interface NativeSuffixResolution {
  /** The name channels are looked up by: the base model when a suffix was split off, else the name as sent. */
  routingModel: string;
  /** The body to send upstream: unchanged unless the suffix supplied a thinkingConfig the body lacked. */
  request: GenerateContentRequest;
  warnings: string[];
}

/**
 * The `{model}` path parameter's thinking suffixes (`-thinking`, `-thinking-<n>`, `-thinking-low|high`,
 * `-nothinking`), as the spec's Model parameter documents them for the native endpoints. A name some channel
 * serves as it is wins (an operator may list a model whose real name ends in `-thinking`); otherwise the suffix
 * is split off for routing and turned into generationConfig.thinkingConfig, unless the body already has one (an
 * explicit thinkingConfig wins). Automatic thinking adaptation is off: a native client owns its request.
 */
export function applyNativeThinkingSuffix(
  model: string,
  request: GenerateContentRequest,
  options: { stream: boolean; isServed: (model: string) => boolean },
): NativeSuffixResolution {
  const warnings: string[] = [];
  const parsed = parseModelSuffix(model);
  if (!parsed.suffix || options.isServed(model)) return { routingModel: model, request, warnings };
  if (request.generationConfig?.thinkingConfig) return { routingModel: parsed.upstreamModel, request, warnings };
  const thinkingConfig = resolveThinkingConfig({
    model: describeThinkingModel(parsed.upstreamModel),
    modelName: model,
    thinkingConfig: undefined,
    reasoningEffort: undefined,
    suffix: parsed.suffix,
    maxOutputTokens: request.generationConfig?.maxOutputTokens ?? undefined,
    stream: options.stream,
    automaticAdaptation: false,
    warnings,
  });
  if (!thinkingConfig) return { routingModel: parsed.upstreamModel, request, warnings };
  return {
    routingModel: parsed.upstreamModel,
    request: { ...request, generationConfig: { ...request.generationConfig, thinkingConfig } },
    warnings,
  };
}
