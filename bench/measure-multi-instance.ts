import { chatBody } from "./bench-plan.js";
import { runLoadPoint } from "./run-load-point.js";
import { runSpreadLoadPoint, type SpreadLoadPointResult } from "./run-spread-load-point.js";
import type { ChildServer } from "./start-child-server.js";
import {
  directTarget,
  type GatewayLaunch,
  setUpstreamLatency,
  startGateway,
  startHandWrittenFloor,
} from "./start-bench-servers.js";
import {
  listDatabaseBackends,
  type PostgresGateways,
  readDatabaseCommits,
  startPostgresFloors,
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
  /**
   * The hand-written floor (children/hand-written-floor-process.ts) in the same round, at 0 ms only: on SQLite, and on
   * the multi-instance mode's ledger alone, as two processes on one database and key, and as two processes with a key
   * of their own user each (rows `hot key`, `2 instances, hot key`, `2 instances, a key and user each`). What the
   * same skeleton, with no framework, pays in each mode: the floor of the mode's aims. Absent at 20 ms and from
   * results saved before it was measured.
   */
  floors?: {
    sqlite: { requestsPerSecond: number; meanMs: number; cpuMicrosecondsPerRequest: number };
    postgres: MultiInstanceRow[];
  };
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

/** A row of a point: which deployment it loads and how its connections pick keys. */
interface PointRow {
  name: string;
  instances: number;
  keys: number;
  /** Instance i always sends key i (instances that share no row), instead of every connection walking the keys. */
  keyEach?: boolean;
}

const floorRows: PointRow[] = [
  { name: "hot key", instances: 1, keys: 1, keyEach: false },
  { name: "2 instances, hot key", instances: 2, keys: 1, keyEach: false },
  // Two floors sharing the database but no row (each its own key of its own user): what the pair pays for sharing
  // one key's rows, beside what it pays for sharing the machine and the database.
  { name: "2 instances, a key and user each", instances: 2, keys: 2, keyEach: true },
];

const rows: PointRow[] = [
  { name: "hot key", instances: 1, keys: 1 },
  { name: "64 keys", instances: 1, keys: 64 },
  { name: "2 instances, hot key", instances: 2, keys: 1 },
  { name: "2 instances, 64 keys", instances: 2, keys: 64 },
];

/**
 * The multi-instance mode (PostgreSQL + Redis) at the embedded mode's points: each round runs the fake directly, a
 * SQLite gateway's hot key, two SQLite gateways sharing nothing (the machine's ceiling for two instances), then one
 * PostgreSQL + Redis gateway and a pair of them on one database, with one hot key and with 64 keys, and at 0 ms the
 * hand-written floor on each mode's ledger (on PostgreSQL one process, two on one key, and two on a key and user
 * each); rounds alternate so a slow spell of a shared machine falls on both modes. Ratios are what to read.
 */
export async function measureMultiInstance(options: MultiInstanceOptions): Promise<MultiInstanceRound[]> {
  const { projectRoot, upstream, launch } = options;
  const sqlite = await startGateway(projectRoot, upstream.url, launch);
  const sqliteSecond = await startGateway(projectRoot, upstream.url, launch).catch(async (error: unknown) => {
    await sqlite.server.stop();
    throw error;
  });
  const deployments = new Map<number, PostgresGateways>();
  const floorDeployments = new Map<string, PostgresGateways>();
  const measureFloors = options.upstreamLatenciesMs.includes(0);
  let sqliteFloor: Awaited<ReturnType<typeof startHandWrittenFloor>> | undefined;
  try {
    for (const instances of [1, 2])
      deployments.set(instances, await startPostgresGateways(projectRoot, upstream.url, launch, instances));
    if (measureFloors) {
      sqliteFloor = await startHandWrittenFloor(projectRoot, upstream.url);
      for (const row of floorRows)
        floorDeployments.set(
          row.name,
          await startPostgresFloors(projectRoot, upstream.url, row.instances, row.keyEach ? "a key each" : "one key"),
        );
    }
    const spread = async (
      row: PointRow,
      connections: number,
      durationSeconds: number,
      gateways = deployments.get(row.instances)!,
    ) => {
      const commitsAtStart = await readDatabaseCommits(gateways.databaseUrl);
      const result = await runSpreadLoadPoint({
        name: row.name,
        urls: gateways.urls,
        gatewayPids: gateways.servers.map((server) => server.process.pid!),
        listDatabaseBackends: () => listDatabaseBackends(gateways.databaseUrl),
        keyHeaders: gateways.keyHeaders.slice(0, row.keys),
        keyPerInstance: row.keyEach === true,
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
    if (sqliteFloor !== undefined) {
      await runLoadPoint({ target: sqliteFloor, connections: 64, durationSeconds: 2, body: chatBody });
      for (const row of floorRows) await spread(row, 64, 2, floorDeployments.get(row.name));
    }

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
          let floors: MultiInstanceRound["floors"];
          if (sqliteFloor !== undefined && latencyMs === 0) {
            const embeddedFloor = await runLoadPoint({
              target: sqliteFloor,
              connections,
              durationSeconds,
              body: chatBody,
            });
            const postgresFloors: MultiInstanceRow[] = [];
            for (const row of floorRows) {
              const { result, commits } = await spread(
                row,
                connections,
                durationSeconds,
                floorDeployments.get(row.name),
              );
              postgresFloors.push(toRow(row, result, commits));
            }
            floors = {
              sqlite: {
                requestsPerSecond: embeddedFloor.requestsPerSecond,
                meanMs: embeddedFloor.latency.meanMs,
                cpuMicrosecondsPerRequest: embeddedFloor.serverCpuMicrosecondsPerRequest,
              },
              postgres: postgresFloors,
            };
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
            ...(floors === undefined ? {} : { floors }),
          };
          measured.push(entry);
          options.log(describeRound(entry, round));
        }
      }
    }
    return measured;
  } finally {
    await Promise.all([sqlite.server.stop(), sqliteSecond.server.stop(), sqliteFloor?.server.stop()]);
    await Promise.all([...deployments.values(), ...floorDeployments.values()].map((gateways) => gateways.stop()));
  }
}

function toRow(row: PointRow, result: SpreadLoadPointResult, commits: number): MultiInstanceRow {
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
  for (const row of entry.postgres) lines.push(`  PostgreSQL ${describeRow(row, entry)}`);
  if (entry.floors) {
    const floor = entry.floors.sqlite;
    lines.push(
      `  floor on SQLite: ${floor.requestsPerSecond.toFixed(0)} req/s, mean ${floor.meanMs.toFixed(2)} ms, ${floor.cpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request`,
    );
    for (const row of entry.floors.postgres) lines.push(`  floor on PostgreSQL ${describeRow(row, entry)}`);
  }
  return lines.join("\n");
}

function describeRow(row: MultiInstanceRow, entry: MultiInstanceRound): string {
  return `${row.name}: ${row.requestsPerSecond.toFixed(0)} req/s (${(row.requestsPerSecond / entry.sqlite.requestsPerSecond).toFixed(2)}× SQLite), mean ${row.meanMs.toFixed(2)} ms, gateway ${row.gatewayCpuMicrosecondsPerRequest.toFixed(0)} µs + PostgreSQL ${row.postgresCpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request, ${row.commitsPerRequest.toFixed(2)} commits/request${row.failures > 0 ? `, failures ${JSON.stringify(row.failuresByKind)}` : ""}`;
}

/**
 * One figure of a row per round at one point (a ratio when `figure` divides by another row of the round). `rowsOf`
 * picks the round's rows: the gateways' (default) or the hand-written floor's (a round without floors gives NaN).
 */
export function figuresPerRound(
  rounds: MultiInstanceRound[],
  latencyMs: number,
  connections: number,
  name: string,
  figure: (row: MultiInstanceRow, round: MultiInstanceRound) => number,
  rowsOf: (round: MultiInstanceRound) => MultiInstanceRow[] = (round) => round.postgres,
): number[] {
  return rounds
    .filter((entry) => entry.latencyMs === latencyMs && entry.connections === connections)
    .map((entry) => {
      const row = rowsOf(entry).find((candidate) => candidate.name === name);
      return row === undefined ? Number.NaN : figure(row, entry);
    });
}

/** The hand-written floor's PostgreSQL rows of a round (none where the floor was not measured). */
export const floorRowsOf = (round: MultiInstanceRound): MultiInstanceRow[] => round.floors?.postgres ?? [];
