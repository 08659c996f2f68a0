import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody } from "./bench-plan.js";
import { runLoadPoint } from "./run-load-point.js";
import {
  directTarget,
  setUpstreamLatency,
  startFakeUpstream,
  startGateway,
  startRawProxy,
  startHandWrittenFloor,
  startUndiciPassThrough,
} from "./start-bench-servers.js";

// A short probe of one or two load points (BENCH_PROBE="latency:connections,…"), for profiling work between full runs.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const points = (process.env.BENCH_PROBE ?? "0:1,0:16,0:64,20:16")
  .split(",")
  .map((point) => point.split(":").map(Number) as [number, number]);
const upstream = await startFakeUpstream(projectRoot);
const undici = await startUndiciPassThrough(projectRoot, upstream.url);
const raw = await startRawProxy(projectRoot, upstream.url);
const floor = await startHandWrittenFloor(projectRoot, upstream.url);
const gateway = await startGateway(projectRoot, upstream.url, { entry: ["dist/src/main.js"] });
for (const [latency, connections] of points) {
  await setUpstreamLatency(upstream, latency);
  for (const target of [
    undici,
    floor,
    gateway.limited,
    gateway.unlimited,
    ...(process.env.BENCH_PROBE_ALL ? [directTarget(upstream), raw] : []),
  ]) {
    const result = await runLoadPoint({ target, connections, durationSeconds: 4, body: chatBody });
    console.log(
      `${latency} ms c=${connections} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, mean ${result.latency.meanMs.toFixed(2)} ms, ${Math.round(result.serverCpuMicrosecondsPerRequest)} µs CPU/request`,
    );
  }
}
await Promise.all([floor.server.stop(), undici.server.stop(), raw.server.stop(), gateway.server.stop()]);
await upstream.stop();
process.exit(0);
