import type { BenchResults, RoundFigures } from "./bench-results.js";
import { median } from "./pick-median-round.js";
import { bareExpressName, directName, gatewayName, portkeyName, rawProxyName } from "./target-names.js";

export interface AimVerdict {
  aim: string;
  measured: string;
  passed: boolean;
}

/**
 * Issue 4's aims, all read from the same run. Each compares two targets round by round (they ran one right after
 * the other) and takes the median over the rounds, so one slow spell of the shared machine cannot decide an aim.
 */
export function evaluateAims(results: BenchResults): AimVerdict[] {
  const roundsOf = (target: string, latencyMs: number, connections: number) =>
    results.points.find(
      (entry) => entry.target === target && entry.latencyMs === latencyMs && entry.connections === connections,
    )?.rounds ?? [];
  const perRound = (
    left: RoundFigures[],
    right: RoundFigures[],
    combine: (left: RoundFigures, right: RoundFigures) => number,
  ) =>
    left.length > 0 && left.length === right.length
      ? left.map((round, index) => combine(round, right[index]!))
      : [Number.NaN];
  const listed = (values: number[], format: (value: number) => string) =>
    values.length > 1 ? `; rounds ${values.map(format).join(", ")}` : "";
  // The larger steal of the two rounds compared: a round the host took cores from says little about either target.
  const steals = (target: string, versus: string, latencyMs: number, connections: number) => {
    const shares = perRound(
      roundsOf(target, latencyMs, connections),
      roundsOf(versus, latencyMs, connections),
      (left, right) => Math.max(left.stealShare, right.stealShare),
    );
    return shares.every(Number.isFinite)
      ? ` (steal ${shares.map((share) => `${(100 * share).toFixed(0)}%`).join(", ")})`
      : "";
  };
  const verdicts: AimVerdict[] = [];

  const rateRatio = (target: string, versus: string, latencyMs: number) =>
    perRound(
      roundsOf(target, latencyMs, 64),
      roundsOf(versus, latencyMs, 64),
      (left, right) => left.requestsPerSecond / right.requestsPerSecond,
    );
  const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
  const times = (value: number) => `${value.toFixed(2)}×`;

  const versusRawFast = rateRatio(gatewayName, rawProxyName, 0);
  verdicts.push({
    aim: "0 ms upstream, c=64: ≥ 25% of the raw proxy's requests/s",
    measured: `median ${percent(median(versusRawFast))}${listed(versusRawFast, percent)}${steals(gatewayName, rawProxyName, 0, 64)}`,
    passed: median(versusRawFast) >= 0.25,
  });
  const versusPortkey = rateRatio(gatewayName, portkeyName, 0);
  verdicts.push({
    aim: "0 ms upstream, c=64: ≥ 4× Portkey's requests/s",
    measured: `median ${times(median(versusPortkey))}${listed(versusPortkey, times)}${steals(gatewayName, portkeyName, 0, 64)}`,
    passed: median(versusPortkey) >= 4,
  });
  const versusRawSlow = rateRatio(gatewayName, rawProxyName, 20);
  verdicts.push({
    aim: "20 ms upstream, c=64: ≥ 90% of the raw proxy's requests/s",
    measured: `median ${percent(median(versusRawSlow))}${listed(versusRawSlow, percent)}${steals(gatewayName, rawProxyName, 20, 64)}`,
    passed: median(versusRawSlow) >= 0.9,
  });
  for (const latencyMs of [0, 20]) {
    const added = perRound(
      roundsOf(gatewayName, latencyMs, 1),
      roundsOf(directName, latencyMs, 1),
      (left, right) => left.meanMs - right.meanMs,
    );
    // What a bare pass-through adds at the same point, measured in the same rounds: the floor of any proxy here.
    const rawAdded = perRound(
      roundsOf(rawProxyName, latencyMs, 1),
      roundsOf(directName, latencyMs, 1),
      (left, right) => left.meanMs - right.meanMs,
    );
    // And what the issue's reference stack adds there: bare Express 5 with JSON parsing and an undici pass-through.
    const bareAdded = perRound(
      roundsOf(bareExpressName, latencyMs, 1),
      roundsOf(directName, latencyMs, 1),
      (left, right) => left.meanMs - right.meanMs,
    );
    const milliseconds = (value: number) => `${value.toFixed(2)} ms`;
    verdicts.push({
      aim: `${latencyMs} ms upstream, c=1: mean added latency ≤ 0.6 ms`,
      measured:
        `median ${milliseconds(median(added))}${listed(added, milliseconds)}${steals(gatewayName, directName, latencyMs, 1)}; ` +
        `the raw proxy added ${milliseconds(median(rawAdded))}${listed(rawAdded, milliseconds)}; ` +
        `bare Express 5 + undici added ${milliseconds(median(bareAdded))}${listed(bareAdded, milliseconds)}`,
      passed: median(added) <= 0.6,
    });
  }
  return verdicts;
}
