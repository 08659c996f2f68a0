import { buildGenerateContentResponse, type ResponseIdentity } from "./build-generate-content-response.js";
import { buildLogprobsResult } from "./build-logprobs-result.js";
import { buildUsageMetadata, type GeneratedTokens } from "./build-usage-metadata.js";
import { splitIntoWords } from "./count-words.js";
import type { GenerationPlan, PlannedPart } from "./plan-generation.js";

type Piece = { part: Record<string, unknown>; tokens: GeneratedTokens };

/**
 * The streamGenerateContent fragments of a plan: visible thoughts first, then text one word per fragment (a signed
 * text's signature in one more fragment, on an empty text part), every other part (functionCall, inlineData, code)
 * whole in its own fragment. Every fragment carries the usage so far; the last one adds finishReason and the
 * candidate extras (safety ratings, grounding, citations).
 * Hidden thoughts are counted from the first fragment on, as the real API has spent them before answering.
 * With several candidates, fragment n carries the n-th piece of every candidate that has one.
 */
export function createGenerateStream(plan: GenerationPlan, identity: ResponseIdentity): Array<Record<string, unknown>> {
  const visibleParts = plan.parts.filter((planned) => planned.visible);
  if (plan.blockReason || visibleParts.length === 0) return [buildGenerateContentResponse(plan, identity)];

  const counted: GeneratedTokens[] = plan.parts.filter((planned) => !planned.visible);
  const candidatePieces = [visibleParts, ...(plan.alternates ?? [])].map(splitIntoPieces);
  const fragmentCount = Math.max(...candidatePieces.map((pieces) => pieces.length));

  return Array.from({ length: fragmentCount }, (_, position) => {
    const candidates: Array<Record<string, unknown>> = [];
    for (const [index, pieces] of candidatePieces.entries()) {
      const piece = pieces[position];
      if (piece === undefined) continue;
      counted.push(piece.tokens);
      const last = position === pieces.length - 1;
      const candidate: Record<string, unknown> = { content: { parts: [piece.part], role: "model" } };
      if (last) candidate.finishReason = plan.finishReason;
      candidate.index = index;
      if (last) Object.assign(candidate, plan.candidateExtras);
      if (plan.logprobs) candidate.logprobsResult = buildLogprobsResult([piece.part], plan.logprobs.top);
      candidates.push(candidate);
    }
    return { candidates, usageMetadata: buildUsageMetadata(plan.prompt, counted), ...identity };
  });
}

function splitIntoPieces(parts: readonly PlannedPart[]): Piece[] {
  const pieces: Piece[] = [];
  for (const planned of parts) {
    const words = typeof planned.part.text === "string" ? splitIntoWords(planned.part.text) : [];
    if (words.length > 1) {
      const { thoughtSignature, ...unsigned } = planned.part;
      for (const word of words) {
        pieces.push({
          part: { ...unsigned, text: word },
          tokens: { modality: planned.modality, thought: planned.thought, tokenCount: 1 },
        });
      }
      // As the real API often does, a signed text's signature comes last, on an empty text part of its own.
      if (thoughtSignature !== undefined) {
        pieces.push({
          part: { text: "", thoughtSignature },
          tokens: { modality: planned.modality, thought: planned.thought, tokenCount: 0 },
        });
      }
    } else {
      pieces.push({ part: planned.part, tokens: planned });
    }
  }
  return pieces;
}
