import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody } from "./bench-plan.js";
import { runLoadPoint } from "./run-load-point.js";
import { runSpreadLoadPoint } from "./run-spread-load-point.js";
import { setUpstreamLatency, startFakeUpstream, startGateway } from "./start-bench-servers.js";
import { listDatabaseBackends, startPostgresGateways } from "./start-postgres-gateways.js";

// Short alternating rounds of the embedded mode (SQLite) and the multi-instance mode (PostgreSQL + Redis) at the same
// points, for checking a change on a busy machine by ratios: BENCH_PROBE="latency:connections,…",
// BENCH_PROBE_ROUNDS, BENCH_PROBE_SECONDS, BENCH_GATEWAY_ENTRY (default dist/src/main.js).
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const points = (process.env.BENCH_PROBE ?? "0:1,0:64,20:64")
  .split(",")
  .map((point) => point.split(":").map(Number) as [number, number]);
const rounds = Number(process.env.BENCH_PROBE_ROUNDS ?? 2);
const durationSeconds = Number(process.env.BENCH_PROBE_SECONDS ?? 3);
const launch = { entry: [process.env.BENCH_GATEWAY_ENTRY ?? "dist/src/main.js"] };

const upstream = await startFakeUpstream(projectRoot);
const sqlite = await startGateway(projectRoot, upstream.url, launch);
const single = await startPostgresGateways(projectRoot, upstream.url, launch, 1);
const pair = await startPostgresGateways(projectRoot, upstream.url, launch, 2);
const pidsOf = (gateways: typeof single) => gateways.servers.map((server) => server.process.pid!);

const format = (
  name: string,
  result: Awaited<ReturnType<typeof runSpreadLoadPoint>> | undefined,
  sqliteRate: number,
) =>
  result === undefined
    ? ""
    : `${name}: ${Math.round(result.requestsPerSecond)} req/s (${(result.requestsPerSecond / sqliteRate).toFixed(2)}× SQLite), mean ${result.latency.meanMs.toFixed(2)} ms, gateway ${Math.round(result.serverCpuMicrosecondsPerRequest)} µs + PostgreSQL ${Math.round(result.databaseCpuMicrosecondsPerRequest)} µs CPU/request${result.failures > 0 ? `, ${result.failures} failures` : ""}`;

// Warm up: every pooled connection open (their backends are what PostgreSQL's CPU is read from) and the code hot.
await runLoadPoint({ target: sqlite.limited, connections: 64, durationSeconds: 2, body: chatBody });
for (const gateways of [single, pair])
  await runSpreadLoadPoint({
    name: "warm-up",
    urls: gateways.urls,
    gatewayPids: [],
    databasePids: [],
    keyHeaders: gateways.keyHeaders,
    connections: 64,
    durationSeconds: 2,
    body: chatBody,
  });

for (let round = 1; round <= rounds; round += 1) {
  for (const [latency, connections] of points) {
    await setUpstreamLatency(upstream, latency);
    const embedded = await runLoadPoint({ target: sqlite.limited, connections, durationSeconds, body: chatBody });
    const spread = async (name: string, gateways: typeof single, keys: number) =>
      runSpreadLoadPoint({
        name,
        urls: gateways.urls,
        gatewayPids: pidsOf(gateways),
        databasePids: await listDatabaseBackends(gateways.databaseUrl),
        keyHeaders: gateways.keyHeaders.slice(0, keys),
        connections,
        durationSeconds,
        body: chatBody,
      });
    const hotKey = await spread("pg hot key", single, 1);
    const manyKeys = await spread("pg 64 keys", single, 64);
    const twoInstances = await spread("pg 2 instances hot key", pair, 1);
    console.log(
      `round ${round} ${latency} ms c=${connections} sqlite hot key: ${Math.round(embedded.requestsPerSecond)} req/s, mean ${embedded.latency.meanMs.toFixed(2)} ms, ${Math.round(embedded.serverCpuMicrosecondsPerRequest)} µs CPU/request`,
    );
    for (const [name, result] of [
      ["  pg hot key", hotKey],
      ["  pg 64 keys", manyKeys],
      ["  pg 2 instances, hot key", twoInstances],
    ] as const)
      console.log(format(name, result, embedded.requestsPerSecond));
  }
}
await Promise.all([sqlite.server.stop(), single.stop(), pair.stop()]);
await upstream.stop();
process.exit(0);
