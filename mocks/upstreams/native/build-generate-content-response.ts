import { buildLogprobsResult } from "./build-logprobs-result.js";
import { buildSafetyRatings } from "./build-safety-ratings.js";
import { buildUsageMetadata } from "./build-usage-metadata.js";
import type { GenerationPlan } from "./plan-generation.js";

/** Per-answer values that stay the same across every fragment of one stream. */
export interface ResponseIdentity {
  modelVersion: string;
  responseId: string;
  createTime: string;
}

/** The non-streaming GenerateContentResponse for a plan (one candidate, more when candidateCount asked for them). */
export function buildGenerateContentResponse(
  plan: GenerationPlan,
  identity: ResponseIdentity,
): Record<string, unknown> {
  const usageMetadata = buildUsageMetadata(plan.prompt, [...plan.parts, ...(plan.alternates ?? []).flat()]);
  if (plan.blockReason) {
    return {
      promptFeedback: { blockReason: plan.blockReason, safetyRatings: buildSafetyRatings(true) },
      usageMetadata,
      ...identity,
    };
  }
  const candidateParts = [plan.parts, ...(plan.alternates ?? [])].map((parts) =>
    parts.filter((planned) => planned.visible).map((planned) => planned.part),
  );
  return {
    candidates: candidateParts.map((visibleParts, index) => ({
      ...(visibleParts.length > 0 ? { content: { parts: visibleParts, role: "model" } } : {}),
      finishReason: plan.finishReason,
      index,
      ...plan.candidateExtras,
      ...(plan.logprobs ? { logprobsResult: buildLogprobsResult(visibleParts, plan.logprobs.top) } : {}),
    })),
    usageMetadata,
    ...identity,
  };
}
