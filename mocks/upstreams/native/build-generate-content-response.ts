import { buildSafetyRatings } from "./build-safety-ratings.js";
import { buildUsageMetadata } from "./build-usage-metadata.js";
import type { GenerationPlan } from "./plan-generation.js";

/** Per-answer values that stay the same across every fragment of one stream. */
export interface ResponseIdentity {
  modelVersion: string;
  responseId: string;
  createTime: string;
}

/** The non-streaming GenerateContentResponse for a plan. */
export function buildGenerateContentResponse(
  plan: GenerationPlan,
  identity: ResponseIdentity,
): Record<string, unknown> {
  const usageMetadata = buildUsageMetadata(plan.prompt, plan.parts);
  if (plan.blockReason) {
    return {
      promptFeedback: { blockReason: plan.blockReason, safetyRatings: buildSafetyRatings(true) },
      usageMetadata,
      ...identity,
    };
  }
  const visibleParts = plan.parts.filter((planned) => planned.visible).map((planned) => planned.part);
  return {
    candidates: [
      {
        ...(visibleParts.length > 0 ? { content: { parts: visibleParts, role: "model" } } : {}),
        finishReason: plan.finishReason,
        index: 0,
        ...plan.candidateExtras,
      },
    ],
    usageMetadata,
    ...identity,
  };
}
