import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { openDatabase } from "../src/store/open-database.js";
import { createPostgresQuotaLedger } from "../src/store/quota/create-postgres-quota-ledger.js";
import { insertTestToken } from "../src/store/testing/insert-test-token.js";
import { insertTestUser } from "../src/store/testing/insert-test-user.js";
import { readProcessCpuMicroseconds } from "./read-process-cpu-microseconds.js";
import { syntheticUsageRow } from "./synthetic-usage-row.js";

// PostgreSQL's CPU per request of the quota ledger alone, on one hot key and its owner's wallet: `n` requests in flight,
// each a hold and then a settlement with its usage row, through the ledger the gateway uses, over one pooled
// connection whose backend's CPU is read from /proc; and this process's own CPU per request (the ledger's share of a
// gateway's, with the requests' ids and usage rows made up here). Arguments: requests in flight (default 1,16,64),
// requests per one in flight (default 300). With BENCH_LEDGER_DEFER=1 each request asks the ledger first whether its
// hold may be deferred, as the relay does for a whole answer, and if so is one item, held and settled at once.
// TEST_DATABASE_URL picks the server, as for the tests.
const sizes = (process.argv[2] ?? "1,16,64").split(",").map(Number);
const cycles = Number(process.argv[3] ?? 300);
const databaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `bench_ledger_${process.pid}`;

const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`create schema ${schema}`);
const database = await openDatabase(databaseUrl, { postgresSchema: schema, postgresPoolSize: 1 });
try {
  const user = await insertTestUser(database.db, { quota: 1e15 });
  const token = await insertTestToken(database.db, user.id, { remainQuota: 1e15 });
  const ledger = createPostgresQuotaLedger(database.db, { now: () => Math.floor(Date.now() / 1000) });
  const backend = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
  const pid = backend.rows[0]!.pid;
  let sequence = 0;
  // One request: its hold, then its settlement with its usage row, as the relay sends them.
  const deferring = process.env.BENCH_LEDGER_DEFER === "1";
  const request = async () => {
    const requestId = randomUUID();
    const hold = { requestId, tokenId: token.id, userId: user.id, amount: 5_000, tokenLimited: true };
    if (deferring && ledger.deferHold(hold)) {
      sequence += 1;
      const usageRow = { ...syntheticUsageRow(sequence, 1, Math.floor(Date.now() / 1000), 0), requestId };
      const outcome = await ledger.settleDeferred(hold, { actual: 1_000 + (sequence % 100), usageRow });
      if (outcome !== "held") throw new Error(`a deferred hold answered ${outcome}`);
      return;
    }
    const outcome = await ledger.reserve(hold);
    if (outcome !== "held") throw new Error(`a hold answered ${outcome}`);
    sequence += 1;
    const index = sequence;
    await ledger.settle({
      reservationId: requestId,
      tokenId: token.id,
      userId: user.id,
      actual: 1_000 + (index % 100),
      usageRow: { ...syntheticUsageRow(index, 1, Math.floor(Date.now() / 1000), 0), requestId },
    });
  };
  for (const size of sizes) {
    // `size` requests in flight at all times, each a hold then a settlement: the ledger batches whatever queues
    // while its statement is out, holds and settlements together, as on a gateway with `size` connections.
    const run = async (requests: number) => {
      let started = 0;
      const worker = async () => {
        while (started < requests) {
          started += 1;
          await request();
        }
      };
      await Promise.all(Array.from({ length: size }, worker));
    };
    await run(size * 20);
    const requests = size * cycles;
    const cpuBefore = readProcessCpuMicroseconds(pid);
    const ownBefore = process.cpuUsage();
    const started = performance.now();
    await run(requests);
    const elapsed = performance.now() - started;
    const cpu = readProcessCpuMicroseconds(pid) - cpuBefore;
    const own = process.cpuUsage(ownBefore);
    console.log(
      `${size} in flight: PostgreSQL ${(cpu / requests).toFixed(0)} µs CPU a request, ` +
        `this process ${((own.user + own.system) / requests).toFixed(0)} µs, ` +
        `${((elapsed * 1000) / requests).toFixed(0)} µs a request end to end (${requests} requests)`,
    );
  }
} finally {
  await database.close();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
