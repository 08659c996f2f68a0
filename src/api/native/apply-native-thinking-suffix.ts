import type { components } from "../../../generated/types/native.js";
import type { ModelNameResolution } from "../../models/resolve-model-name.js";
import { describeThinkingModel } from "../../providers/native/shared/describe-thinking-model.js";
import { resolveThinkingConfig } from "../../providers/native/shared/resolve-thinking-config.js";

type GenerateContentRequest = components["schemas"]["GenerateContentRequest"];

export interface NativeSuffixApplication {
  /** The body to send upstream: unchanged unless the suffix supplied a thinkingConfig the body lacked. */
  request: GenerateContentRequest;
  warnings: string[];
}

/**
 * The `{model}` path parameter's thinking suffix (`-thinking`, `-thinking-<n>`, `-thinking-low|high`,
 * `-nothinking`), as the spec's Model parameter documents it for the native endpoints, once the name was resolved
 * (resolveModelName decides whether a suffix is split off at all): the suffix becomes
 * generationConfig.thinkingConfig, unless the body already has one (an explicit thinkingConfig wins). Automatic
 * thinking adaptation is off: a native client owns its request.
 */
export function applyNativeThinkingSuffix(
  resolved: ModelNameResolution,
  request: GenerateContentRequest,
  options: { stream: boolean },
): NativeSuffixApplication {
  const warnings: string[] = [];
  if (!resolved.thinking || request.generationConfig?.thinkingConfig) return { request, warnings };
  const thinkingConfig = resolveThinkingConfig({
    model: describeThinkingModel(resolved.routingModel),
    modelName: resolved.model,
    thinkingConfig: undefined,
    reasoningEffort: undefined,
    suffix: resolved.thinking,
    maxOutputTokens: request.generationConfig?.maxOutputTokens ?? undefined,
    stream: options.stream,
    automaticAdaptation: false,
    warnings,
  });
  if (!thinkingConfig) return { request, warnings };
  return { request: { ...request, generationConfig: { ...request.generationConfig, thinkingConfig } }, warnings };
}
