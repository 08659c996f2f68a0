import { buildGenerateContentResponse, type ResponseIdentity } from "./build-generate-content-response.js";
import { buildUsageMetadata, type GeneratedTokens } from "./build-usage-metadata.js";
import { splitIntoWords } from "./count-words.js";
import type { GenerationPlan } from "./plan-generation.js";

/**
 * The streamGenerateContent fragments of a plan: visible thoughts first, then text one word per fragment,
 * every other part (functionCall, inlineData, code) whole in its own fragment. Every fragment carries the usage
 * so far; the last one adds finishReason and the candidate extras (safety ratings, grounding, citations).
 * Hidden thoughts are counted from the first fragment on, as the real API has spent them before answering.
 */
export function createGenerateStream(plan: GenerationPlan, identity: ResponseIdentity): Array<Record<string, unknown>> {
  const visibleParts = plan.parts.filter((planned) => planned.visible);
  if (plan.blockReason || visibleParts.length === 0) return [buildGenerateContentResponse(plan, identity)];

  const counted: GeneratedTokens[] = plan.parts.filter((planned) => !planned.visible);
  const pieces: Array<{ part: Record<string, unknown>; tokens: GeneratedTokens }> = [];
  for (const planned of visibleParts) {
    const words = typeof planned.part.text === "string" ? splitIntoWords(planned.part.text) : [];
    if (words.length > 1) {
      for (const word of words) {
        pieces.push({
          part: { ...planned.part, text: word },
          tokens: { modality: planned.modality, thought: planned.thought, tokenCount: 1 },
        });
      }
    } else {
      pieces.push({ part: planned.part, tokens: planned });
    }
  }

  return pieces.map((piece, index) => {
    counted.push(piece.tokens);
    const last = index === pieces.length - 1;
    const candidate: Record<string, unknown> = { content: { parts: [piece.part], role: "model" } };
    if (last) candidate.finishReason = plan.finishReason;
    candidate.index = 0;
    if (last) Object.assign(candidate, plan.candidateExtras);
    return { candidates: [candidate], usageMetadata: buildUsageMetadata(plan.prompt, counted), ...identity };
  });
}
