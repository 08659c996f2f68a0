import type { BenchResults } from "./bench-results.js";
import { rawProxyName, portkeyName, gatewayName, directName } from "./target-names.js";

export interface AimVerdict {
  aim: string;
  measured: string;
  passed: boolean;
}

/** Issue 4's aims, all read from the same run. */
export function evaluateAims(results: BenchResults): AimVerdict[] {
  const point = (target: string, latencyMs: number, connections: number) =>
    results.points.find((entry) => entry.target === target && entry.latencyMs === latencyMs && entry.connections === connections);
  const rps = (target: string, latencyMs: number, connections: number) => point(target, latencyMs, connections)?.requestsPerSecond ?? Number.NaN;
  const verdicts: AimVerdict[] = [];

  const gatewayFast = rps(gatewayName, 0, 64);
  const rawFast = rps(rawProxyName, 0, 64);
  const portkeyFast = rps(portkeyName, 0, 64);
  verdicts.push({
    aim: "0 ms upstream, c=64: ≥ 25% of the raw proxy's requests/s",
    measured: `${gatewayFast.toFixed(0)} / ${rawFast.toFixed(0)} req/s = ${((100 * gatewayFast) / rawFast).toFixed(1)}%`,
    passed: gatewayFast >= 0.25 * rawFast,
  });
  verdicts.push({
    aim: "0 ms upstream, c=64: ≥ 4× Portkey's requests/s",
    measured: `${gatewayFast.toFixed(0)} / ${portkeyFast.toFixed(0)} req/s = ${(gatewayFast / portkeyFast).toFixed(2)}×`,
    passed: gatewayFast >= 4 * portkeyFast,
  });
  const gatewaySlow = rps(gatewayName, 20, 64);
  const rawSlow = rps(rawProxyName, 20, 64);
  verdicts.push({
    aim: "20 ms upstream, c=64: ≥ 90% of the raw proxy's requests/s",
    measured: `${gatewaySlow.toFixed(0)} / ${rawSlow.toFixed(0)} req/s = ${((100 * gatewaySlow) / rawSlow).toFixed(1)}%`,
    passed: gatewaySlow >= 0.9 * rawSlow,
  });
  for (const latencyMs of [0, 20]) {
    const added = (point(gatewayName, latencyMs, 1)?.latency.meanMs ?? Number.NaN) - (point(directName, latencyMs, 1)?.latency.meanMs ?? Number.NaN);
    verdicts.push({
      aim: `${latencyMs} ms upstream, c=1: mean added latency ≤ 0.6 ms`,
      measured: `${added.toFixed(2)} ms`,
      passed: added <= 0.6,
    });
  }
  return verdicts;
}
