import { chatBody } from "./bench-plan.js";
import { runLoadPoint } from "./run-load-point.js";
import { runSpreadLoadPoint, type SpreadLoadPointResult } from "./run-spread-load-point.js";
import type { ChildServer } from "./start-child-server.js";
import { directTarget, type GatewayLaunch, setUpstreamLatency, startGateway } from "./start-bench-servers.js";
import {
  listDatabaseBackends,
  type PostgresGateways,
  readDatabaseCommits,
  startPostgresGateways,
} from "./start-postgres-gateways.js";

/** The multi-instance mode's rows of one point, beside the embedded mode (SQLite) measured in the same round. */
export interface MultiInstanceRound {
  latencyMs: number;
  connections: number;
  /** The fake upstream called directly: what "added latency" is measured against. */
  direct: { requestsPerSecond: number; meanMs: number };
  sqlite: { requestsPerSecond: number; meanMs: number; cpuMicrosecondsPerRequest: number };
  /**
   * Two SQLite gateways that share nothing (each its own database and key), the connections split between them as
   * for the PostgreSQL pairs: what two instances can serve on this machine when nothing is shared. It is the ceiling
   * of the two-instance aim here; absent from results saved before it was measured.
   */
  sqlitePair?: { requestsPerSecond: number; cpuMicrosecondsPerRequest: number };
  postgres: MultiInstanceRow[];
}

export interface MultiInstanceRow {
  /** `hot key` / `64 keys`, on one instance or two behind one load generator. */
  name: string;
  instances: number;
  keys: number;
  requestsPerSecond: number;
  meanMs: number;
  gatewayCpuMicrosecondsPerRequest: number;
  postgresCpuMicrosecondsPerRequest: number;
  /** PostgreSQL transactions committed per request (every statement of the database counted). */
  commitsPerRequest: number;
  failures: number;
  failuresByKind: Record<string, number>;
}

export interface MultiInstanceOptions {
  projectRoot: string;
  upstream: ChildServer;
  launch: GatewayLaunch;
  upstreamLatenciesMs: number[];
  concurrencies: number[];
  rounds: number;
  secondsPerPoint: number;
  log(message: string): void;
}

const rows = [
  { name: "hot key", instances: 1, keys: 1 },
  { name: "64 keys", instances: 1, keys: 64 },
  { name: "2 instances, hot key", instances: 2, keys: 1 },
  { name: "2 instances, 64 keys", instances: 2, keys: 64 },
];

/**
 * The multi-instance mode (PostgreSQL + Redis) at the embedded mode's points: each round runs the fake directly, a
 * SQLite gateway's hot key, two SQLite gateways sharing nothing (the machine's ceiling for two instances), then one
 * PostgreSQL + Redis gateway and a pair of them on one database, with one hot key and with 64 keys; rounds alternate
 * so a slow spell of a shared machine falls on both modes. Ratios are what to read.
 */
export async function measureMultiInstance(options: MultiInstanceOptions): Promise<MultiInstanceRound[]> {
  const { projectRoot, upstream, launch } = options;
  const sqlite = await startGateway(projectRoot, upstream.url, launch);
  const sqliteSecond = await startGateway(projectRoot, upstream.url, launch).catch(async (error: unknown) => {
    await sqlite.server.stop();
    throw error;
  });
  const deployments = new Map<number, PostgresGateways>();
  try {
    for (const instances of [1, 2])
      deployments.set(instances, await startPostgresGateways(projectRoot, upstream.url, launch, instances));
    const spread = async (row: (typeof rows)[number], connections: number, durationSeconds: number) => {
      const gateways = deployments.get(row.instances)!;
      const commitsAtStart = await readDatabaseCommits(gateways.databaseUrl);
      const result = await runSpreadLoadPoint({
        name: row.name,
        urls: gateways.urls,
        gatewayPids: gateways.servers.map((server) => server.process.pid!),
        listDatabaseBackends: () => listDatabaseBackends(gateways.databaseUrl),
        keyHeaders: gateways.keyHeaders.slice(0, row.keys),
        connections,
        durationSeconds,
        body: chatBody,
      });
      // Backends report their commits within a second of going idle; the two readings are commits themselves.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const commits = (await readDatabaseCommits(gateways.databaseUrl)) - commitsAtStart - 1;
      return { result, commits };
    };
    // Warm up: the code hot and every pooled connection open (their backends are where PostgreSQL's CPU is read).
    await setUpstreamLatency(upstream, 0);
    for (const gateway of [sqlite, sqliteSecond])
      await runLoadPoint({ target: gateway.limited, connections: 64, durationSeconds: 2, body: chatBody });
    for (const row of rows) await spread(row, 64, 2);

    const measured: MultiInstanceRound[] = [];
    for (const latencyMs of options.upstreamLatenciesMs) {
      await setUpstreamLatency(upstream, latencyMs);
      for (const connections of options.concurrencies) {
        for (let round = 1; round <= options.rounds; round += 1) {
          const durationSeconds = options.secondsPerPoint;
          const direct = await runLoadPoint({
            target: directTarget(upstream),
            connections,
            durationSeconds,
            body: chatBody,
          });
          const embedded = await runLoadPoint({ target: sqlite.limited, connections, durationSeconds, body: chatBody });
          const pair = await Promise.all(
            [sqlite, sqliteSecond].map((gateway) =>
              runLoadPoint({
                target: gateway.limited,
                connections: Math.max(1, Math.round(connections / 2)),
                durationSeconds,
                body: chatBody,
              }),
            ),
          );
          const pairRate = pair.reduce((sum, result) => sum + result.requestsPerSecond, 0);
          const postgres: MultiInstanceRow[] = [];
          for (const row of rows) {
            const { result, commits } = await spread(row, connections, durationSeconds);
            postgres.push(toRow(row, result, commits));
          }
          const entry: MultiInstanceRound = {
            latencyMs,
            connections,
            direct: { requestsPerSecond: direct.requestsPerSecond, meanMs: direct.latency.meanMs },
            sqlite: {
              requestsPerSecond: embedded.requestsPerSecond,
              meanMs: embedded.latency.meanMs,
              cpuMicrosecondsPerRequest: embedded.serverCpuMicrosecondsPerRequest,
            },
            sqlitePair: {
              requestsPerSecond: pairRate,
              cpuMicrosecondsPerRequest:
                pair.reduce(
                  (sum, result) => sum + result.serverCpuMicrosecondsPerRequest * result.requestsPerSecond,
                  0,
                ) / pairRate,
            },
            postgres,
          };
          measured.push(entry);
          options.log(describeRound(entry, round));
        }
      }
    }
    return measured;
  } finally {
    await Promise.all([sqlite.server.stop(), sqliteSecond.server.stop()]);
    await Promise.all([...deployments.values()].map((gateways) => gateways.stop()));
  }
}

function toRow(row: (typeof rows)[number], result: SpreadLoadPointResult, commits: number): MultiInstanceRow {
  const answered = result.latency.count + result.failures;
  return {
    ...row,
    requestsPerSecond: result.requestsPerSecond,
    meanMs: result.latency.meanMs,
    gatewayCpuMicrosecondsPerRequest: result.serverCpuMicrosecondsPerRequest,
    postgresCpuMicrosecondsPerRequest: result.databaseCpuMicrosecondsPerRequest,
    commitsPerRequest: answered > 0 ? commits / answered : Number.NaN,
    failures: result.failures,
    failuresByKind: result.failuresByKind,
  };
}

export function describeRound(entry: MultiInstanceRound, round: number): string {
  const lines = [
    `multi-instance ${entry.latencyMs} ms c=${entry.connections} round ${round}: direct ${entry.direct.meanMs.toFixed(2)} ms; SQLite hot key ${entry.sqlite.requestsPerSecond.toFixed(0)} req/s, mean ${entry.sqlite.meanMs.toFixed(2)} ms, ${entry.sqlite.cpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request`,
  ];
  if (entry.sqlitePair)
    lines.push(
      `  SQLite 2 instances sharing nothing: ${entry.sqlitePair.requestsPerSecond.toFixed(0)} req/s (${(entry.sqlitePair.requestsPerSecond / entry.sqlite.requestsPerSecond).toFixed(2)}× one), ${entry.sqlitePair.cpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request`,
    );
  for (const row of entry.postgres)
    lines.push(
      `  PostgreSQL ${row.name}: ${row.requestsPerSecond.toFixed(0)} req/s (${(row.requestsPerSecond / entry.sqlite.requestsPerSecond).toFixed(2)}× SQLite), mean ${row.meanMs.toFixed(2)} ms, gateway ${row.gatewayCpuMicrosecondsPerRequest.toFixed(0)} µs + PostgreSQL ${row.postgresCpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request, ${row.commitsPerRequest.toFixed(2)} commits/request${row.failures > 0 ? `, failures ${JSON.stringify(row.failuresByKind)}` : ""}`,
    );
  return lines.join("\n");
}

/** One figure of a row per round at one point (a ratio when `figure` divides by another row of the round). */
export function figuresPerRound(
  rounds: MultiInstanceRound[],
  latencyMs: number,
  connections: number,
  name: string,
  figure: (row: MultiInstanceRow, round: MultiInstanceRound) => number,
): number[] {
  return rounds
    .filter((entry) => entry.latencyMs === latencyMs && entry.connections === connections)
    .map((entry) => {
      const row = entry.postgres.find((candidate) => candidate.name === name);
      return row === undefined ? Number.NaN : figure(row, entry);
    });
}
