export interface LatencySummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** Mean and percentiles of sub-millisecond latencies (autocannon's own histogram keeps whole milliseconds). */
export function summariseLatencies(latenciesMs: number[]): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    count: sorted.length,
    meanMs: sorted.length ? total / sorted.length : Number.NaN,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}
