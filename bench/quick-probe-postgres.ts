import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureMultiInstance } from "./measure-multi-instance.js";
import { startFakeUpstream } from "./start-bench-servers.js";

// Short alternating rounds of the embedded mode (SQLite) and the multi-instance mode (PostgreSQL + Redis) at the same
// points, for checking a change on a busy machine by ratios: BENCH_PROBE="latency:connections,…",
// BENCH_PROBE_ROUNDS, BENCH_PROBE_SECONDS, BENCH_GATEWAY_ENTRY (default dist/src/main.js).
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const points = (process.env.BENCH_PROBE ?? "0:1,0:64")
  .split(",")
  .map((point) => point.split(":").map(Number) as [number, number]);
const upstream = await startFakeUpstream(projectRoot);
try {
  for (const [latencyMs, connections] of points)
    await measureMultiInstance({
      projectRoot,
      upstream,
      launch: { entry: [process.env.BENCH_GATEWAY_ENTRY ?? "dist/src/main.js"] },
      upstreamLatenciesMs: [latencyMs],
      concurrencies: [connections],
      rounds: Number(process.env.BENCH_PROBE_ROUNDS ?? 2),
      secondsPerPoint: Number(process.env.BENCH_PROBE_SECONDS ?? 3),
      log: console.log,
    });
} finally {
  await upstream.stop();
}
process.exit(0);
