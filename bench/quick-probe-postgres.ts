import path from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateMultiInstanceAims } from "./evaluate-aims.js";
import { type MultiInstanceRound, measureMultiInstance } from "./measure-multi-instance.js";
import { startFakeUpstream } from "./start-bench-servers.js";

// Short alternating rounds of the embedded mode (SQLite) and the multi-instance mode (PostgreSQL + Redis) at the same
// points, for checking a change on a busy machine by ratios: BENCH_PROBE="latency:connections,…",
// BENCH_PROBE_ROUNDS, BENCH_PROBE_SECONDS, BENCH_GATEWAY_ENTRY (default dist/src/main.js). It ends with the verdicts
// of the multi-instance aims whose points it ran, the hand-written floor's figures beside them.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const points = (process.env.BENCH_PROBE ?? "0:1,0:64")
  .split(",")
  .map((point) => point.split(":").map(Number) as [number, number]);
const upstream = await startFakeUpstream(projectRoot);
const rounds: MultiInstanceRound[] = [];
try {
  for (const [latencyMs, connections] of points) {
    const measured = await measureMultiInstance({
      projectRoot,
      upstream,
      launch: { entry: [process.env.BENCH_GATEWAY_ENTRY ?? "dist/src/main.js"] },
      upstreamLatenciesMs: [latencyMs],
      concurrencies: [connections],
      rounds: Number(process.env.BENCH_PROBE_ROUNDS ?? 2),
      secondsPerPoint: Number(process.env.BENCH_PROBE_SECONDS ?? 3),
      log: console.log,
    });
    rounds.push(...measured);
  }
  for (const verdict of evaluateMultiInstanceAims(rounds))
    if (!verdict.measured.includes("NaN"))
      console.log(`${verdict.passed ? "pass" : "FAIL"}: ${verdict.aim} (CPU: ${verdict.cpu}; ${verdict.measured})`);
} finally {
  await upstream.stop();
}
process.exit(0);
