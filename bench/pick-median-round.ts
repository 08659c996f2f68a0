import type { RoundFigures } from "./bench-results.js";
import type { LoadPointResult } from "./run-load-point.js";

/** A point's row: the round with the median requests/s (the lower middle one of an even count), with every round's figures in run order. */
export function pickMedianRound(rounds: LoadPointResult[]): LoadPointResult & { rounds: RoundFigures[] } {
  if (rounds.length === 0) throw new Error("a point needs at least one round");
  const byRate = [...rounds].sort((left, right) => left.requestsPerSecond - right.requestsPerSecond);
  const median = byRate[Math.floor((byRate.length - 1) / 2)]!;
  return {
    ...median,
    rounds: rounds.map((round) => ({
      requestsPerSecond: round.requestsPerSecond,
      meanMs: round.latency.meanMs,
      stealShare: round.stealShare,
    })),
  };
}

/** The median of some numbers (the mean of the middle two of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
