import { randomBytes } from "node:crypto";
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { GatewayConfig } from "../../src/config/gateway-config.js";
import { createLogger } from "../../src/logging/logger.js";
import type { Database } from "../../src/store/database-schema.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { createMigrationProvider } from "../../src/store/migrations/create-migration-provider.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL } from "../../src/store/testing/open-test-databases.js";
import { insertUsageLogs, type NewUsageLog } from "../../src/store/usage-logs/insert-usage-logs.js";
import {
  addMonths,
  createUsageLogPartitions,
  dropDetachedUsageLogPartition,
  listUsageLogPartitions,
  monthPartitionName,
  monthStartOf,
} from "../../src/store/usage-logs/usage-log-partitions.js";
import { startUsageRetention, type UsageRetentionStep } from "../../src/usage-logs/start-usage-retention.js";
import { readModelRollupsAndSums } from "../support/compare-rollups-with-rows.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// The PostgreSQL usage log partitioned by month: the migration keeps the rows it finds, gateways make months ahead
// (several at once without conflict), rows land in their month, settlement and the administrators' log work across
// partitions, and retention drops a month wholly past it while the rollups stay.
const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const DAY = 86_400;
const schemas: string[] = [];
const opened: GatewayDatabase[] = [];

async function administrative(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function freshSchema(): Promise<string> {
  const schema = `t_partitions_${randomBytes(5).toString("hex")}`;
  await administrative(`create schema ${schema}`);
  schemas.push(schema);
  return schema;
}

async function openInSchema(schema: string): Promise<GatewayDatabase> {
  const database = await openDatabase(databaseUrl, { postgresSchema: schema });
  opened.push(database);
  return database;
}

afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
  for (const schema of schemas) await administrative(`drop schema if exists ${schema} cascade`);
});

function usageRow(requestId: string, createdTime: number, overrides: Partial<NewUsageLog> = {}): NewUsageLog {
  return {
    userId: 1,
    tokenId: 1,
    tokenName: "t",
    model: "model-p",
    channelId: 1,
    requestId,
    isStream: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    quota: 3,
    latencyMs: 7,
    status: "success",
    errorMessage: null,
    createdTime,
    group: "default",
    ...overrides,
  };
}

/** Which table holds each request id's row. */
async function partitionsOf(database: GatewayDatabase): Promise<Record<string, string>> {
  const rows = await sql<{ request_id: string; partition: string }>`
    select request_id, tableoid::regclass::text as partition from usage_logs`.execute(database.db);
  return Object.fromEntries(rows.rows.map((row) => [row.request_id, row.partition.replace(/^.*\./, "")]));
}

describe("the partitioned usage log on PostgreSQL", () => {
  it("turns an existing log into month partitions, keeping every row and its id", async () => {
    const schema = await freshSchema();
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${schema}` }),
      }),
    });
    try {
      const migrator = new Migrator({
        db,
        provider: createMigrationProvider("postgres"),
        migrationTableSchema: schema,
      });
      expect((await migrator.migrateTo("0015_usage_model_rollups")).error).toBeUndefined();
      const now = Math.floor(Date.now() / 1000);
      const rows = [usageRow("last-month", now - 35 * DAY), usageRow("today", now), usageRow("ancient", 1_000)];
      await insertUsageLogs(db, "postgres", rows);
      const before = await db.selectFrom("usage_logs").selectAll().orderBy("id").execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const kind = await sql<{
        relkind: string;
      }>`select relkind from pg_class where oid = 'usage_logs'::regclass`.execute(db);
      expect(kind.rows[0]!.relkind).toBe("p");
      expect(await db.selectFrom("usage_logs").selectAll().orderBy("id").execute()).toEqual(before);
      const database = { db, dialect: "postgres" as const, close: async () => undefined };
      const where = await partitionsOf(database);
      expect(where["last-month"]).toBe(monthPartitionName(monthStartOf(now - 35 * DAY)));
      expect(where.today).toBe(monthPartitionName(monthStartOf(now)));
      // Older than the 36 months the migration makes partitions for.
      expect(where.ancient).toBe("usage_logs_default");
      const months = (await listUsageLogPartitions(db)).map((partition) => partition.name);
      expect(months.at(-1)).toBe(monthPartitionName(addMonths(monthStartOf(now), 3)));
      // New ids continue after the copied ones.
      await insertUsageLogs(db, "postgres", [usageRow("after", now)]);
      const after = await db
        .selectFrom("usage_logs")
        .select("id")
        .where("request_id", "=", "after")
        .executeTakeFirstOrThrow();
      expect(Number(after.id)).toBeGreaterThan(Math.max(...before.map((row) => Number(row.id))));
    } finally {
      await db.destroy();
    }
  });

  describe("with gateways", () => {
    let upstream: FakeUpstream;
    let schema: string;
    let first: TestGateway;
    let second: TestGateway;
    // A clock of its own, months past the real one: the months the migration made do not cover it, so both
    // gateways' starts must make them, at once.
    const clock = { now: Date.UTC(2031, 4, 20, 12) / 1000 };

    beforeAll(async () => {
      upstream = await startFakeOpenaiServer();
      schema = await freshSchema();
      const [firstDatabase, secondDatabase] = await Promise.all([openInSchema(schema), openInSchema(schema)]);
      const configFile = {
        channels: [{ name: "partitioned", type: "openai", base_url: upstream.url, key: "k", models: ["model-p"] }],
        pricing: { "model-p": { input: 1, output: 2 } },
      };
      // One root token for both, as instances of one database have (each start makes the root's token its own).
      const adminToken = `admin-${randomBytes(12).toString("hex")}`;
      const started = await Promise.all(
        [firstDatabase!, secondDatabase!].map((database) =>
          startTestGateway({
            database,
            configFile,
            now: () => clock.now,
            environment: { GATEWAY_ADMIN_TOKEN: adminToken },
          }),
        ),
      );
      [first, second] = started.map((gateway) => ({
        ...gateway,
        adminToken,
        client: gateway.clientFor({ accessToken: adminToken }),
      }));
    });
    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
      await upstream?.close();
    });

    it("makes the current month and three ahead at start, once, though two gateways start at once", async () => {
      const months = (await listUsageLogPartitions(first.gateway.context.database.db)).map(
        (partition) => partition.name,
      );
      const current = monthStartOf(clock.now);
      for (let offset = 0; offset <= 3; offset += 1)
        expect(months).toContain(monthPartitionName(addMonths(current, offset)));
      expect(new Set(months).size).toBe(months.length);
      // Two more runs at once, as two instances' daily timers: nothing left to make, nothing fails.
      const { db } = first.gateway.context.database;
      const later = [addMonths(current, 4), addMonths(current, 5)];
      const runs = await Promise.all([
        createUsageLogPartitions(db, later, { lockTimeoutMs: 5_000 }),
        createUsageLogPartitions(second.gateway.context.database.db, later, { lockTimeoutMs: 5_000 }),
      ]);
      expect(runs.flat().sort()).toEqual(later.map(monthPartitionName).sort());
    });

    it("settles requests into this month's partition and serves them in the administrators' log", async () => {
      const { id: tokenId, key } = await createApiKey(first, { remainQuota: 1_000_000 });
      const chat = (gateway: TestGateway) =>
        fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "model-p", messages: [{ role: "user", content: "partitioned" }] }),
        });
      const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => chat(index % 2 ? first : second)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
      const requestIds = answers.map((answer) => answer.headers.get("x-request-id")!);
      await Promise.all([first, second].map((gateway) => gateway.gateway.context.billing.flush()));

      const where = await partitionsOf(first.gateway.context.database);
      for (const requestId of requestIds) expect(where[requestId]).toBe(monthPartitionName(monthStartOf(clock.now)));
      // The key's balance went down by what the rows say: the settlement batches wrote rows and moved quota.
      const spent = await first.gateway.context.database.db
        .selectFrom("usage_logs")
        .select((expression) => expression.fn.sum<number>("quota").as("quota"))
        .where("request_id", "in", requestIds)
        .executeTakeFirstOrThrow();
      const token = await first.gateway.context.database.db
        .selectFrom("tokens")
        .select(["used_quota"])
        .where("id", "=", tokenId)
        .executeTakeFirstOrThrow();
      expect(Number(token.used_quota)).toBe(Number(spent.quota));

      const page = await first.client.management.GET("/api/log/", { params: { query: { size: 4 } } });
      expect(page.data!.data.items).toHaveLength(4);
      const rest = await first.client.management.GET("/api/log/", {
        params: { query: { size: 4, cursor: page.data!.data.next_cursor! } },
      });
      const listed = [...page.data!.data.items, ...rest.data!.data.items].map((item) => item.request_id);
      expect(listed.sort()).toEqual([...requestIds].sort());
      const one = await first.client.management.GET("/api/log/{id}", {
        params: { path: { id: page.data!.data.items[0]!.id } },
      });
      expect(one.error).toBeUndefined();
      expect(one.data!.data.request_id).toBe(page.data!.data.items[0]!.request_id);
    });

    it("moves rows that fell into the default partition into the month made for them later", async () => {
      const { db } = first.gateway.context.database;
      const farMonth = Date.UTC(2040, 0, 1) / 1000;
      await insertUsageLogs(db, "postgres", [usageRow("far-1", farMonth + 10), usageRow("far-2", farMonth + DAY)]);
      expect((await partitionsOf(first.gateway.context.database))["far-1"]).toBe("usage_logs_default");
      expect(await createUsageLogPartitions(db, [farMonth], { lockTimeoutMs: 5_000 })).toEqual(["usage_logs_2040_01"]);
      const where = await partitionsOf(first.gateway.context.database);
      expect([where["far-1"], where["far-2"]]).toEqual(["usage_logs_2040_01", "usage_logs_2040_01"]);
    });

    it("drops a month wholly past retention, deletes the straddling month's old rows in batches, keeps rollups", async () => {
      const { context } = first.gateway;
      const { db } = context.database;
      const current = monthStartOf(clock.now);
      const twoMonthsBack = addMonths(current, -2);
      const oneMonthBack = addMonths(current, -1);
      await createUsageLogPartitions(db, [twoMonthsBack, oneMonthBack], { lockTimeoutMs: 5_000 });
      // Retention of 40 days from 2031-05-20: April 2031 straddles the boundary (2031-04-10), March is wholly past.
      const boundary = clock.now - 40 * DAY;
      await insertUsageLogs(db, "postgres", [
        ...Array.from({ length: 30 }, (_, index) => usageRow(`march-${index}`, twoMonthsBack + index * 3_600)),
        ...Array.from({ length: 3 }, (_, index) => usageRow(`april-old-${index}`, oneMonthBack + index * 60)),
        usageRow("april-kept", boundary + 60),
      ]);
      const statistics = async () =>
        (
          await first.client.management.GET("/api/log/stat", {
            params: { query: { scope: "all", start_time: twoMonthsBack, end_time: clock.now + 60 } },
          })
        ).data!.data.totals.requests;
      const requestsBefore = await statistics();

      // Two instances' passes at once: each month is dropped by one of them, neither fails.
      const retentions = [first, second].map(({ gateway }) =>
        startUsageRetention(
          {
            ...gateway.context,
            config: {
              ...gateway.context.config,
              logs: { retentionDays: 40, rollupRetentionDays: 0, retentionBatchSize: 2, retentionPauseMs: 1 },
            },
          },
          { intervalMs: 3_600_000, firstPassAfterMs: 3_600_000 },
        ),
      );
      const outcomes = await Promise.all(retentions.map((retention) => retention.runOnce()));
      await Promise.all(retentions.map((retention) => retention.stop()));
      const dropped = outcomes.flatMap((outcome) => outcome.droppedPartitions);
      // March, and the months the migration made around the real clock, years before this test's.
      expect(dropped.filter((name) => name === monthPartitionName(twoMonthsBack))).toHaveLength(1);
      expect(new Set(dropped).size).toBe(dropped.length);
      expect(dropped).not.toContain(monthPartitionName(oneMonthBack));
      expect(outcomes[0]!.deletedRows + outcomes[1]!.deletedRows).toBe(3);
      const months = (await listUsageLogPartitions(db)).map((partition) => partition.name);
      expect(months).not.toContain(monthPartitionName(twoMonthsBack));
      expect(months).toContain(monthPartitionName(oneMonthBack));
      const where = await partitionsOf(context.database);
      expect(Object.keys(where).filter((requestId) => /^(march|april-old)/.test(requestId))).toEqual([]);
      expect(where["april-kept"]).toBe(monthPartitionName(oneMonthBack));
      // Statistics read the rollups, which retention of raw rows leaves alone.
      expect(await statistics()).toBe(requestsBefore);
      const { modelRollups, fromRollups } = await readModelRollupsAndSums(db);
      expect(modelRollups).toEqual(fromRollups);
      expect(modelRollups.filter((row) => row.hour >= twoMonthsBack && row.hour < oneMonthBack)).not.toEqual([]);
    });
  });
});

describe("retention's month drops on PostgreSQL", () => {
  // A clock 15 days into the real month and 20 days' retention: the month before straddles the boundary, the months
  // before it are wholly past retention, and the migration's months (this one and three ahead) are kept.
  const current = monthStartOf(Math.floor(Date.now() / 1000));
  const now = current + 15 * DAY;
  const retentionDays = 20;

  function retentionOf(database: GatewayDatabase, onStep?: (step: UsageRetentionStep) => void) {
    const config = {
      logs: { retentionDays, rollupRetentionDays: 0, retentionBatchSize: 100, retentionPauseMs: 1 },
    } as GatewayConfig;
    return startUsageRetention(
      { config, database, logger: createLogger({ level: "warn" }), now: () => now },
      { intervalMs: 3_600_000, firstPassAfterMs: 3_600_000, ...(onStep ? { onStep } : {}) },
    );
  }

  async function tableExists(database: GatewayDatabase, schema: string, name: string): Promise<boolean> {
    const found = await sql<{ found: string | null }>`
      select to_regclass(${`${schema}.${name}`}) as found`.execute(database.db);
    return found.rows[0]!.found !== null;
  }

  it("holds the usage log's lock for the detach only: requests go on while the detached month's drop waits", async () => {
    const schema = await freshSchema();
    const database = await openInSchema(schema);
    const { db } = database;
    const past = addMonths(current, -2);
    const pastName = monthPartitionName(past);
    await createUsageLogPartitions(db, [past, addMonths(current, -1)], { lockTimeoutMs: 5_000 });
    await insertUsageLogs(db, "postgres", [usageRow("past", past + DAY), usageRow("kept", now)]);
    // The drop of that month waits, inside its own statement, until the test opens the gate: an event trigger at
    // the end of the drop (whatever transaction runs it) sleeps until a row says so, at most 8 s.
    const trigger = `${schema}_hold_month_drop`;
    await administrative(`
      create table ${schema}.drop_gate (open boolean not null);
      insert into ${schema}.drop_gate values (false);
      create function ${schema}.hold_month_drop() returns event_trigger language plpgsql as $$
      begin
        if exists (select 1 from pg_event_trigger_dropped_objects()
            where object_type = 'table' and schema_name = '${schema}' and object_name = '${pastName}') then
          for step in 1..800 loop
            exit when (select open from ${schema}.drop_gate);
            perform pg_sleep(0.01);
          end loop;
        end if;
      end $$;
      create event trigger ${trigger} on sql_drop execute function ${schema}.hold_month_drop();`);
    let passEnded = false;
    const retention = retentionOf(database);
    const pass = retention.runOnce().finally(() => {
      passEnded = true;
    });
    try {
      const startedAt = performance.now();
      for (;;) {
        const waiting = await sql<{ found: number }>`select 1 as found from pg_stat_activity
          where wait_event = 'PgSleep' and query ilike '%drop table%'`.execute(db);
        if (waiting.rows.length > 0) break;
        expect(performance.now() - startedAt).toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // A request's insert and a read of the usage log, on a connection of their own, give up after 2 s of waiting
      // for a lock: they would wait for the drop's end if the drop's transaction held the parent's lock.
      await db.transaction().execute(async (transaction) => {
        await sql`set local lock_timeout = '2s'`.execute(transaction);
        await insertUsageLogs(transaction, "postgres", [usageRow("during-drop", now)]);
        const rows = await transaction
          .selectFrom("usage_logs")
          .select((expression) => expression.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow();
        expect(Number(rows.count)).toBe(2);
      });
      expect(passEnded).toBe(false);
    } finally {
      await administrative(`update ${schema}.drop_gate set open = true; drop event trigger if exists ${trigger}`);
      await pass.catch(() => undefined);
      await retention.stop();
    }
    expect((await pass).droppedPartitions).toEqual([pastName]);
    expect(await tableExists(database, schema, pastName)).toBe(false);
  });

  it("drops a month a crash left detached, in this schema only, and no other table", async () => {
    const schema = await freshSchema();
    const otherSchema = await freshSchema();
    const database = await openInSchema(schema);
    const { db } = database;
    const months = [-4, -3, -2, -1].map((offset) => addMonths(current, offset));
    await createUsageLogPartitions(db, months, { lockTimeoutMs: 5_000 });
    await insertUsageLogs(db, "postgres", [
      ...months.map((month, index) => usageRow(`month-${index}`, month + DAY)),
      usageRow("kept", now),
    ]);
    const [oldest, orphan, past, straddling] = months.map(monthPartitionName) as [string, string, string, string];
    // A month detached and never dropped (the crash), one detached within retention (an operator's, say, kept), a
    // table of another name, and a table of the orphan's name in another schema.
    const withinRetention = monthPartitionName(addMonths(current, 3));
    await administrative(`
      alter table ${schema}.usage_logs detach partition ${schema}.${orphan};
      alter table ${schema}.usage_logs detach partition ${schema}.${withinRetention};
      create table ${schema}.usage_logs_archive (like ${schema}.usage_logs);
      create table ${otherSchema}.${orphan} (id bigint);`);
    expect(await dropDetachedUsageLogPartition(db, past, { lockTimeoutMs: 5_000 })).toBe("attached");

    const steps: UsageRetentionStep["kind"][] = [];
    const retention = retentionOf(database, (step) => steps.push(step.kind));
    const outcome = await retention.runOnce();
    await retention.stop();
    expect(outcome.droppedPartitions).toEqual([orphan, oldest, past]);
    expect(steps.filter((kind) => kind !== "delete")).toEqual(["drop", "detach", "drop", "detach", "drop"]);
    for (const name of [orphan, oldest, past]) expect(await tableExists(database, schema, name)).toBe(false);
    expect(await tableExists(database, schema, withinRetention)).toBe(true);
    expect(await tableExists(database, schema, "usage_logs_archive")).toBe(true);
    expect(await tableExists(database, otherSchema, orphan)).toBe(true);
    const attached = (await listUsageLogPartitions(db)).map((partition) => partition.name);
    expect(attached).toEqual([
      straddling,
      ...[0, 1, 2].map((offset) => monthPartitionName(addMonths(current, offset))),
    ]);
    // The straddling month's row was past retention too: deleted by a batch.
    expect(Object.keys(await partitionsOf(database))).toEqual(["kept"]);
  });
});
