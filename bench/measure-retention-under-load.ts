import { type ChildProcess, fork } from "node:child_process";
import { sql } from "kysely";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { GatewayDatabase } from "../src/store/gateway-database.js";
import { openDatabase } from "../src/store/open-database.js";
import { addMonths, createUsageLogPartitions, monthStartOf } from "../src/store/usage-logs/usage-log-partitions.js";
import type { UsageRetentionStep } from "../src/usage-logs/start-usage-retention.js";
import type { RetentionJob, RetentionJobSettings } from "./create-retention-job.js";
import { chatBody } from "./bench-plan.js";
import { generateUsageRows } from "./generate-usage-rows.js";
import { runLoadPoint } from "./run-load-point.js";
import {
  benchModel,
  type BenchTarget,
  type GatewayLaunch,
  setUpstreamLatency,
  startFakeUpstream,
  startGatewayProcess,
  upstreamKey,
} from "./start-bench-servers.js";
import type { ChildServer } from "./start-child-server.js";
import { provisionGatewayToken } from "./provision-gateway-token.js";
import { startPostgresGateways } from "./start-postgres-gateways.js";
import { gatewayName } from "./target-names.js";

export interface RetentionUnderLoadResult {
  database: "SQLite" | "PostgreSQL";
  oldRows: number;
  rounds: number;
  secondsPerPoint: number;
  /** Median requests/s at 0 ms upstream latency and 64 connections, without and with the retention job running. */
  requestsPerSecondWithout: number;
  requestsPerSecondWith: number;
  /** Every delete batch of the job while the load ran. */
  batches: number;
  rowsDeleted: number;
  /** How long a batch held a lock requests could wait on (on SQLite its statement's own run; see UsageRetentionStep). */
  longestBatchMs: number;
  p99BatchMs: number;
  medianBatchMs: number;
  /** The longest time around a batch, waits for the connection and the event loop included. */
  longestBatchWallMs: number;
  /** PostgreSQL: the longest month detach, from its statement (queued for the usage log's own lock) to its commit. */
  longestDetachMs: number | null;
  /** PostgreSQL: the longest drop of a detached month, which locks that table alone. */
  longestDropMs: number | null;
  loadAverage: { start: number; end: number };
}

const DAY = 86_400;
const RETENTION_DAYS = 90;
// The defaults an operator gets (docs/USAGE-LOGS.md).
const BATCH_SIZE = 100;
const PAUSE_MS = 100;

/**
 * The retention job while the 0 ms / 64-connection load runs against a gateway: `oldRows` usage rows between 130 and
 * 60 days old (retention 90 days: the older half is past it) are generated first; then rounds alternate a point
 * without the job and a point with the job deleting (the job of src/usage-logs/, with the operator's default batch
 * size and pause, on the gateway's database: on SQLite in the bench process on a connection of its own, on PostgreSQL in
 * a process of its own, as another instance runs it). Each batch is timed from its
 * statement's start to its end, an upper bound of how long it held its locks. On PostgreSQL the months wholly past
 * retention have partitions of their own and are dropped; the month straddling the boundary loses its rows by
 * batches. A month's detach (the only step taking the usage log's own lock, its wait for it included) and its drop
 * (in a transaction of its own, locking the detached table alone) are timed apart. The gateway's own retention is
 * off, so only the measured job deletes.
 */
export async function measureRetentionUnderLoad(options: {
  projectRoot: string;
  upstream: ChildServer;
  /** The PostgreSQL gateway's launch; SQLite's gateway runs from the sources with the job inside it. */
  launch: GatewayLaunch;
  dialect: "sqlite" | "postgres";
  oldRows: number;
  rounds: number;
  secondsPerPoint: number;
  log: (message: string) => void;
}): Promise<RetentionUnderLoadResult> {
  const loadAverageStart = os.loadavg()[0]!;
  const noRetention = { logs: { retention_days: 0 } };
  let target: BenchTarget;
  let stopGateway: () => Promise<void>;
  let stopJob = async () => {};
  let database: GatewayDatabase;
  let databaseUrl: string;
  // SQLite: the job runs inside the gateway's process on its connection, as the gateway runs its own (a job in another
  // process meets the gateway's writer in SQLite's busy handler, which sleeps a millisecond or more, event loop and
  // all, on either side); so this gateway runs from the sources through tsx, with the job beside it.
  let jobInGateway: RetentionJob | undefined;
  const jobSettings: RetentionJobSettings = { retentionDays: RETENTION_DAYS, batchSize: BATCH_SIZE, pauseMs: PAUSE_MS };
  if (options.dialect === "sqlite") {
    const launch = { entry: ["--import", "tsx", "bench/children/gateway-with-retention-process.ts"] };
    const gateway = await startGatewayProcess(options.projectRoot, launch, {
      environment: { BENCH_RETENTION: JSON.stringify(jobSettings) },
      config: {
        channels: [
          { name: "bench", type: "openai", base_url: options.upstream.url, key: upstreamKey, models: [benchModel] },
        ],
        pricing: { [benchModel]: { input: 1, output: 2 } },
        ...noRetention,
      },
    });
    const token = await provisionGatewayToken(gateway.url, gateway.adminToken, { name: "bench", unlimited: false });
    target = {
      name: gatewayName,
      server: gateway.server,
      url: gateway.url,
      headers: { authorization: `Bearer ${token.apiKey}` },
    };
    jobInGateway = retentionJobOverMessages(gateway.server.process, async () => {});
    databaseUrl = `sqlite:${path.join(gateway.dataFolder, "gateway.db")}`;
    database = await openDatabase(databaseUrl);
    stopGateway = () => gateway.server.stop();
  } else {
    const gateways = await startPostgresGateways(
      options.projectRoot,
      options.upstream.url,
      options.launch,
      1,
      {},
      noRetention,
    );
    target = {
      name: gatewayName,
      server: gateways.servers[0]!,
      url: gateways.urls[0]!,
      headers: gateways.keyHeaders[0]!,
    };
    databaseUrl = gateways.databaseUrl;
    database = await openDatabase(databaseUrl, {
      postgresTimeouts: { statementTimeoutMs: 0, queryTimeoutMs: 0 },
    });
    stopGateway = () => gateways.stop();
  }
  try {
    const now = Math.floor(Date.now() / 1000);
    const start = now - 130 * DAY;
    if (options.dialect === "postgres") {
      const months: number[] = [];
      for (let month = monthStartOf(start); month <= monthStartOf(now); month = addMonths(month, 1)) months.push(month);
      await createUsageLogPartitions(database.db, months, { lockTimeoutMs: 10_000 });
    }
    options.log(`retention point: generating ${options.oldRows.toLocaleString("en")} old rows`);
    await generateUsageRows(database.db, database.dialect, { total: options.oldRows, start, days: 70 });
    // Months-old rows have long been analysed by autovacuum; rows generated a moment ago have no statistics yet, and
    // without them PostgreSQL planned each batch's delete to scan the partition (about 200 ms a batch, not 1 ms).
    if (options.dialect === "postgres") await sql`analyze usage_logs`.execute(database.db);

    const steps: UsageRetentionStep[] = [];
    // PostgreSQL: in a child process, as another instance runs it, whose event loop nothing else keeps busy (in this
    // process the load generator's waits were timed too).
    const job = jobInGateway ?? (await startRetentionJobProcess(options.projectRoot, { ...jobSettings, databaseUrl }));
    stopJob = () => job.close();
    job.onStep((step) => steps.push(step));
    const point = () =>
      runLoadPoint({ target, connections: 64, durationSeconds: options.secondsPerPoint, body: chatBody });
    await setUpstreamLatency(options.upstream, 0);
    await runLoadPoint({ target, connections: 16, durationSeconds: 2, body: chatBody });
    const without: number[] = [];
    const withJob: number[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const plain = await point();
      without.push(plain.requestsPerSecond);
      job.run();
      const loaded = await point();
      await job.stop();
      withJob.push(loaded.requestsPerSecond);
      options.log(
        `retention point round ${round}: ${plain.requestsPerSecond.toFixed(0)} req/s without the job, ${loaded.requestsPerSecond.toFixed(0)} with it; ${steps.length} steps so far`,
      );
    }
    const deleteSteps = steps.filter((step) => step.kind === "delete");
    const deletes = deleteSteps.map((step) => step.lockHeldMilliseconds).sort((a, b) => a - b);
    const longest = (times: number[]) => (times.length > 0 ? Math.max(...times) : null);
    const longestOf = (kind: UsageRetentionStep["kind"]) =>
      longest(steps.filter((step) => step.kind === kind).map((step) => step.lockHeldMilliseconds));
    return {
      database: options.dialect === "postgres" ? "PostgreSQL" : "SQLite",
      oldRows: options.oldRows,
      rounds: options.rounds,
      secondsPerPoint: options.secondsPerPoint,
      requestsPerSecondWithout: medianOf(without),
      requestsPerSecondWith: medianOf(withJob),
      batches: deletes.length,
      rowsDeleted: steps.reduce((sum, step) => sum + step.rows, 0),
      longestBatchMs: deletes.at(-1) ?? Number.NaN,
      p99BatchMs: deletes[Math.min(deletes.length - 1, Math.floor(deletes.length * 0.99))] ?? Number.NaN,
      medianBatchMs: deletes[Math.floor(deletes.length / 2)] ?? Number.NaN,
      longestBatchWallMs: longest(deleteSteps.map((step) => step.milliseconds)) ?? Number.NaN,
      longestDetachMs: longestOf("detach"),
      longestDropMs: longestOf("drop"),
      loadAverage: { start: loadAverageStart, end: os.loadavg()[0]! },
    };
  } finally {
    await stopJob();
    await database.close();
    await stopGateway();
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export function formatRetentionUnderLoad(result: RetentionUnderLoadResult): string {
  const ratio = result.requestsPerSecondWith / result.requestsPerSecondWithout;
  return [
    `${result.database}: retention of ${result.oldRows.toLocaleString("en")} old rows under 0 ms / 64 connections, ${result.rounds} rounds of ${result.secondsPerPoint} s; load average ${result.loadAverage.start.toFixed(2)} → ${result.loadAverage.end.toFixed(2)}`,
    `  throughput ${result.requestsPerSecondWithout.toFixed(0)} req/s without the job, ${result.requestsPerSecondWith.toFixed(0)} with it (${(100 * (ratio - 1)).toFixed(1)}%)`,
    `  ${result.batches} delete batches, ${result.rowsDeleted.toLocaleString("en")} rows: lock held longest ${result.longestBatchMs.toFixed(1)} ms, p99 ${result.p99BatchMs.toFixed(1)} ms, median ${result.medianBatchMs.toFixed(1)} ms (longest with waits ${result.longestBatchWallMs.toFixed(1)} ms)${result.longestDetachMs === null ? "" : `; longest detach (parent lock) ${result.longestDetachMs.toFixed(1)} ms`}${result.longestDropMs === null ? "" : `; longest drop ${result.longestDropMs.toFixed(1)} ms`}`,
  ].join("\n");
}

// Run alone: npx tsx bench/measure-retention-under-load.ts [sqlite|postgres|both] [old rows] [rounds] [seconds]
// (defaults: both, 1,000,000, 3, 10). Runs the gateway through tsx; PostgreSQL on BENCH_POSTGRES_URL.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const which = process.argv[2] ?? "both";
  const oldRows = Number(process.argv[3] ?? 1_000_000);
  const rounds = Number(process.argv[4] ?? 3);
  const secondsPerPoint = Number(process.argv[5] ?? 10);
  const began = performance.now();
  const log = (message: string) =>
    console.log(`[retention ${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}`);
  const upstream = await startFakeUpstream(projectRoot);
  try {
    for (const dialect of ["sqlite", "postgres"] as const) {
      if (which !== "both" && which !== dialect) continue;
      const result = await measureRetentionUnderLoad({
        projectRoot,
        upstream,
        launch: { entry: ["--import", "tsx", "src/main.ts"] },
        dialect,
        oldRows,
        rounds,
        secondsPerPoint,
        log,
      });
      console.log(formatRetentionUnderLoad(result));
    }
  } finally {
    await upstream.stop();
  }
}

/** bench/children/retention-job-process.ts, ready to run a pass. */
async function startRetentionJobProcess(
  projectRoot: string,
  settings: RetentionJobSettings & { databaseUrl: string },
): Promise<RetentionJob> {
  const child = fork(path.join(projectRoot, "bench/children/retention-job-process.ts"), [], {
    cwd: projectRoot,
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_RETENTION: JSON.stringify(settings) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the retention job process exited with ${code}`)));
    child.once("message", (message: { type: string }) => {
      if (message.type === "ready") resolve();
    });
  });
  child.removeAllListeners("exit");
  return retentionJobOverMessages(
    child,
    () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  );
}

/** A retention job in another process (bench/children/), driven by messages: `run`, `stop`, its steps back. */
function retentionJobOverMessages(child: ChildProcess, close: () => Promise<void>): RetentionJob {
  const listeners: ((step: UsageRetentionStep) => void)[] = [];
  let stopped: (() => void) | undefined;
  child.on("message", (message: { type: string; step?: UsageRetentionStep; message?: string }) => {
    if (message.type === "step") for (const listener of listeners) listener(message.step!);
    else if (message.type === "stopped") stopped?.();
    else if (message.type === "failed") console.error(`retention failed: ${message.message}`);
  });
  return {
    onStep: (listener) => listeners.push(listener),
    run: () => child.send({ type: "run" }),
    stop: () =>
      new Promise<void>((resolve) => {
        stopped = resolve;
        child.send({ type: "stop" });
      }),
    close,
  };
}
