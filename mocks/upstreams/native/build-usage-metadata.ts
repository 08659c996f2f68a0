import type { PromptUsage } from "./compute-prompt-usage.js";
import type { PlannedPart } from "./plan-generation.js";

export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  promptTokensDetails: Array<{ modality: string; tokenCount: number }>;
  candidatesTokensDetails?: Array<{ modality: string; tokenCount: number }>;
  thoughtsTokenCount?: number;
}

/** One generated piece's cost, as counted into usage. */
export interface GeneratedTokens {
  modality: PlannedPart["modality"];
  thought: boolean;
  tokenCount: number;
}

/**
 * Usage as the native API reports it: thoughts are outside candidatesTokenCount but inside totalTokenCount,
 * and zero counts are omitted (proto3 JSON), so a thoughts-only stream fragment has no candidatesTokenCount.
 */
export function buildUsageMetadata(prompt: PromptUsage, generated: GeneratedTokens[]): UsageMetadata {
  let thoughtsTokenCount = 0;
  const byModality = new Map<string, number>();
  for (const piece of generated) {
    if (piece.thought) thoughtsTokenCount += piece.tokenCount;
    else byModality.set(piece.modality, (byModality.get(piece.modality) ?? 0) + piece.tokenCount);
  }
  const candidatesTokensDetails = [...byModality.entries()]
    .filter(([, tokenCount]) => tokenCount > 0)
    .map(([modality, tokenCount]) => ({ modality, tokenCount }));
  const candidatesTokenCount = candidatesTokensDetails.reduce((sum, detail) => sum + detail.tokenCount, 0);
  const usage: UsageMetadata = {
    promptTokenCount: prompt.promptTokenCount,
    ...(candidatesTokenCount > 0 ? { candidatesTokenCount } : {}),
    totalTokenCount: prompt.promptTokenCount + candidatesTokenCount + thoughtsTokenCount,
    ...(prompt.cachedContentTokenCount !== undefined
      ? { cachedContentTokenCount: prompt.cachedContentTokenCount }
      : {}),
    promptTokensDetails: prompt.promptTokensDetails,
    ...(candidatesTokensDetails.length > 0 ? { candidatesTokensDetails } : {}),
    ...(thoughtsTokenCount > 0 ? { thoughtsTokenCount } : {}),
  };
  return usage;
}
