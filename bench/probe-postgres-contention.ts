import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import pg from "pg";
import { Redis } from "ioredis";
import { chatBody } from "./bench-plan.js";
import { runSpreadLoadPoint } from "./run-spread-load-point.js";
import { setUpstreamLatency, startFakeUpstream } from "./start-bench-servers.js";
import { benchRedisUrl, listDatabaseBackends, startPostgresGateways } from "./start-postgres-gateways.js";

// Where the time of the multi-instance mode goes under one hot key: one and two gateway instances on one PostgreSQL,
// alternating rounds, while the database's backends are sampled (what each waits on, what it runs) and the
// statements, row changes and Redis commands per answered request are counted. BENCH_PROBE_CONNECTIONS (64),
// BENCH_PROBE_ROUNDS (2), BENCH_PROBE_SECONDS (4), BENCH_GATEWAY_ENTRY (default dist/src/main.js);
// BENCH_PROBE_BATCHES_IN_FLIGHT="1,2" compares values of DATABASE_LEDGER_BATCHES_IN_FLIGHT in the same rounds, and
// BENCH_PROBE_ENTRIES="dist/src/main.js,/elsewhere/dist/src/main.js" two builds (another worktree's).
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const connections = Number(process.env.BENCH_PROBE_CONNECTIONS ?? 64);
const rounds = Number(process.env.BENCH_PROBE_ROUNDS ?? 2);
const seconds = Number(process.env.BENCH_PROBE_SECONDS ?? 4);
const entries = (process.env.BENCH_PROBE_ENTRIES ?? process.env.BENCH_GATEWAY_ENTRY ?? "dist/src/main.js").split(",");
const batchesInFlight = (process.env.BENCH_PROBE_BATCHES_IN_FLIGHT ?? "1").split(",");
const variants = entries.flatMap((entry) => batchesInFlight.map((inFlight) => ({ entry, inFlight })));
type Variant = (typeof variants)[number];
const describeVariant = (variant: Variant) =>
  `${entries.length > 1 ? `${variant.entry}, ` : ""}${variant.inFlight} ledger batch(es) out`;

interface TableCounters {
  [table: string]: { inserts: number; updates: number; indexScans: number; sequentialScans: number };
}

async function withClient<Result>(url: string, use: (client: pg.Client) => Promise<Result>): Promise<Result> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function readTables(url: string): Promise<{ tables: TableCounters; commits: number }> {
  return withClient(url, async (client) => {
    await client.query("select pg_stat_clear_snapshot()");
    const tables = await client.query<{
      relname: string;
      n_tup_ins: string;
      n_tup_upd: string;
      idx_scan: string | null;
      seq_scan: string;
    }>("select relname, n_tup_ins, n_tup_upd, idx_scan, seq_scan from pg_stat_user_tables");
    const commits = await client.query<{ xact_commit: string }>(
      "select xact_commit from pg_stat_database where datname = current_database()",
    );
    const counters: TableCounters = {};
    for (const row of tables.rows)
      counters[row.relname] = {
        inserts: Number(row.n_tup_ins),
        updates: Number(row.n_tup_upd),
        indexScans: Number(row.idx_scan ?? 0),
        sequentialScans: Number(row.seq_scan),
      };
    return { tables: counters, commits: Number(commits.rows[0]!.xact_commit) };
  });
}

async function readRedisCalls(redis: Redis): Promise<Record<string, number>> {
  const text = await redis.info("commandstats");
  const calls: Record<string, number> = {};
  for (const match of text.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) calls[match[1]!] = Number(match[2]);
  return calls;
}

/** Samples every backend of the database every few milliseconds until `until` resolves. */
async function sampleBackends(url: string, until: Promise<unknown>): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let done = false;
  void until.then(() => (done = true));
  await withClient(url, async (client) => {
    while (!done) {
      const result = await client.query<{ state: string; wait: string | null; query: string }>(
        `select state, wait_event_type || ':' || wait_event as wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as query
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      for (const row of result.rows) {
        const label =
          row.state === "active" ? `active ${row.wait ?? "cpu"} ${row.query}` : `${row.state} ${row.wait ?? ""}`;
        seen.set(label, (seen.get(label) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return seen;
}

const upstream = await startFakeUpstream(projectRoot);
const redis = new Redis(benchRedisUrl);
try {
  await setUpstreamLatency(upstream, 0);
  const deployments = new Map<string, Awaited<ReturnType<typeof startPostgresGateways>>>();
  try {
    for (const variant of variants)
      for (const instances of [1, 2])
        deployments.set(
          `${instances}/${describeVariant(variant)}`,
          await startPostgresGateways(projectRoot, upstream.url, { entry: [variant.entry] }, instances, {
            DATABASE_LEDGER_BATCHES_IN_FLIGHT: variant.inFlight,
          }),
        );
    const run = async (instances: number, variant: Variant, durationSeconds: number, report: boolean) => {
      const gateways = deployments.get(`${instances}/${describeVariant(variant)}`)!;
      const before = await readTables(gateways.databaseUrl);
      const redisBefore = await readRedisCalls(redis);
      const load = runSpreadLoadPoint({
        name: `${instances}`,
        urls: gateways.urls,
        gatewayPids: gateways.servers.map((server) => server.process.pid!),
        listDatabaseBackends: () => listDatabaseBackends(gateways.databaseUrl),
        keyHeaders: gateways.keyHeaders.slice(0, 1),
        connections,
        durationSeconds,
        body: chatBody,
      });
      const samples = report ? await sampleBackends(gateways.databaseUrl, load) : new Map<string, number>();
      const result = await load;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const after = await readTables(gateways.databaseUrl);
      const redisAfter = await readRedisCalls(redis);
      if (!report) return;
      const answered = result.latency.count + result.failures;
      console.log(
        `${instances} instance(s), ${describeVariant(variant)}, hot key, ${connections} connections: ${result.requestsPerSecond.toFixed(0)} req/s, mean ${result.latency.meanMs.toFixed(2)} ms, gateway ${result.serverCpuMicrosecondsPerRequest.toFixed(0)} µs + PostgreSQL ${result.databaseCpuMicrosecondsPerRequest.toFixed(0)} µs CPU/request, failures ${JSON.stringify(result.failuresByKind)}, load average ${os.loadavg()[0]!.toFixed(2)}`,
      );
      console.log(`  commits/request ${((after.commits - before.commits - 1) / answered).toFixed(2)}`);
      for (const [table, counters] of Object.entries(after.tables)) {
        const start = before.tables[table];
        if (start === undefined) continue;
        const per = (name: keyof typeof counters) => (counters[name] - start[name]) / answered;
        if (per("inserts") + per("updates") + per("indexScans") + per("sequentialScans") > 0.01)
          console.log(
            `  ${table}: ${per("inserts").toFixed(2)} inserts, ${per("updates").toFixed(2)} updates, ${per("indexScans").toFixed(2)} index scans, ${per("sequentialScans").toFixed(2)} sequential scans per request`,
          );
      }
      const redisCalls = Object.entries(redisAfter)
        .map(([command, calls]) => [command, (calls - (redisBefore[command] ?? 0)) / answered] as const)
        .filter(([, perRequest]) => perRequest > 0.01)
        .map(([command, perRequest]) => `${command} ${perRequest.toFixed(2)}`);
      console.log(`  Redis commands/request (the whole server): ${redisCalls.join(", ")}`);
      const total = [...samples.values()].reduce((sum, count) => sum + count, 0);
      const top = [...samples.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
      for (const [label, count] of top) console.log(`  ${((100 * count) / total).toFixed(1)}% ${label}`);
    };
    for (const variant of variants) for (const instances of [1, 2]) await run(instances, variant, 2, false);
    for (let round = 1; round <= rounds; round += 1)
      for (const variant of variants) for (const instances of [1, 2]) await run(instances, variant, seconds, true);
  } finally {
    await Promise.all([...deployments.values()].map((gateways) => gateways.stop()));
  }
} finally {
  redis.disconnect();
  await upstream.stop();
}
process.exit(0);
