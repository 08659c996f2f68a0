import type { RoundFigures, StreamRoundFigures } from "./bench-results.js";
import type { StreamThroughputResult } from "./measure-stream-throughput.js";
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
      serverCpuMicrosecondsPerRequest: round.serverCpuMicrosecondsPerRequest,
    })),
  };
}

/** The median of some numbers (the mean of the middle two of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A streaming point's row: the round with the median chunks/s, with every round's figures in run order. */
export function pickMedianStreamRound(rounds: StreamThroughputResult[]): StreamThroughputResult & {
  rounds: StreamRoundFigures[];
} {
  if (rounds.length === 0) throw new Error("a point needs at least one round");
  const byRate = [...rounds].sort((left, right) => left.chunksPerSecond - right.chunksPerSecond);
  const median = byRate[Math.floor((byRate.length - 1) / 2)]!;
  return {
    ...median,
    rounds: rounds.map((round) => ({
      chunksPerSecond: round.chunksPerSecond,
      gapP99Ms: round.gap.p99Ms,
      firstByteMeanMs: round.firstByte.meanMs,
      serverCpuMicrosecondsPerChunk: round.serverCpuMicrosecondsPerChunk,
    })),
  };
}
