import { createHash } from "node:crypto";
import { splitIntoWords } from "./count-words.js";

/**
 * The logprobsResult of some answer parts, one decoding step per word of their text (the fake's token), as the real
 * API shapes it: chosenCandidates[] and, when alternatives were asked for, topCandidates[{candidates[]}] sorted by
 * log probability with the chosen token first. Log probabilities come from the word itself, so a stream's fragments
 * and the whole answer agree.
 */
export function buildLogprobsResult(
  parts: ReadonlyArray<Record<string, unknown>>,
  top: number,
): Record<string, unknown> {
  const words = parts
    .filter((part) => typeof part.text === "string" && part.thought !== true)
    .flatMap((part) => splitIntoWords(part.text as string));
  const chosenCandidates = words.map((word) => ({
    token: word,
    tokenId: tokenIdOf(word),
    logProbability: logProbabilityOf(word),
  }));
  const result: Record<string, unknown> = {
    chosenCandidates,
    logProbabilitySum: Number(
      chosenCandidates.reduce((sum, candidate) => sum + candidate.logProbability, 0).toFixed(4),
    ),
  };
  if (top > 0) {
    result.topCandidates = chosenCandidates.map((chosen) => ({
      candidates: [
        chosen,
        ...Array.from({ length: top - 1 }, (_, rank) => {
          const token = `${chosen.token.trim()}#${rank + 1}`;
          return {
            token,
            tokenId: tokenIdOf(token),
            logProbability: Number((chosen.logProbability - 1 - rank).toFixed(4)),
          };
        }),
      ],
    }));
  }
  return result;
}

function digestOf(word: string): Buffer {
  return createHash("sha256").update(word).digest();
}

function tokenIdOf(word: string): number {
  return digestOf(word).readUInt16BE(0);
}

function logProbabilityOf(word: string): number {
  return -Number(((digestOf(word)[2]! % 100) / 100 + 0.01).toFixed(2));
}
