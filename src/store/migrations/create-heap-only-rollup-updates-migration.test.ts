import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { createMigrationProvider } from "./create-migration-provider.js";
import { aggregateUsageRollups } from "../usage-logs/aggregate-usage-rollups.js";
import { insertUsageLogs, type NewUsageLog } from "../usage-logs/insert-usage-logs.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;
const db = postgres.db;

function usageRow(tokenId: number, quota: number): NewUsageLog {
  return {
    userId: 7,
    tokenId,
    tokenName: `token ${tokenId}`,
    model: "gpt-4o-mini",
    channelId: 1,
    requestId: randomUUID(),
    isStream: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    quota,
    latencyMs: 3,
    status: "success",
    errorMessage: null,
    createdTime: 7_200 + 60,
    group: "default",
  };
}

describe("heap-only rollup updates (migration 0020, PostgreSQL)", () => {
  it("adds each settlement's usage to its hourly and its hour and model rollup without writing any index", async () => {
    // The first settlement of the hour inserts the rows; every later one updates them, as a busy key does.
    await insertUsageLogs(db, "postgres", [usageRow(1, 100), usageRow(2, 100)]);
    const updates = await db.connection().execute(async (connection) => {
      for (let settlement = 1; settlement <= 40; settlement += 1)
        await insertUsageLogs(connection, "postgres", [usageRow(1 + (settlement % 2), settlement)]);
      // This backend's table counters reach the shared statistics when it next goes idle, forced here.
      await sql`select pg_stat_force_next_flush()`.execute(connection);
      await sql`select 1`.execute(connection);
      await sql`select pg_stat_clear_snapshot()`.execute(connection);
      const counted = await sql<{ relname: string; updated: string; heap_only: string }>`
        select relname, n_tup_upd as updated, n_tup_hot_upd as heap_only from pg_stat_user_tables
          where schemaname = current_schema() and relname in ('usage_rollups', 'usage_model_rollups')
          order by relname`.execute(connection);
      return counted.rows.map((row) => [row.relname, Number(row.updated), Number(row.heap_only)]);
    });
    // Before the migration the hourly rollup's 40 updates each wrote both its indexes (0 heap-only).
    expect(updates).toEqual([
      ["usage_model_rollups", 40, 40],
      ["usage_rollups", 40, 40],
    ]);

    // A user's statistics and one token's read the same sums.
    const token = await aggregateUsageRollups(db, { userId: 7, tokenId: 2, startHour: 0, endHour: 9_000 }, 86_400);
    const user = await aggregateUsageRollups(db, { userId: 7, startHour: 0, endHour: 9_000 }, 86_400);
    expect(token.map((row) => [row.time, row.requests, row.quota])).toEqual([[0, 21, 100 + 20 * 20]]);
    expect(user.map((row) => [row.time, row.requests, row.quota])).toEqual([[0, 42, 200 + (40 * 41) / 2]]);
  });

  it("goes down to the covering index and the default page fill, and up again", async () => {
    const shape = async () => {
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
        where schemaname = current_schema() and tablename = 'usage_rollups' order by indexname`.execute(db);
      const options = await sql<{ relname: string; reloptions: string[] | null }>`select relname, reloptions
        from pg_class where relnamespace = current_schema()::regnamespace
          and relname in ('usage_rollups', 'usage_model_rollups') order by relname`.execute(db);
      return {
        indexes: indexes.rows.map((row) => row.indexname),
        options: options.rows.map((row) => [row.relname, row.reloptions]),
      };
    };
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
    const migrator = new Migrator({ db, provider: createMigrationProvider("postgres"), migrationTableSchema: schema });
    const migrated = await shape();
    expect(migrated).toEqual({
      indexes: ["usage_rollups_primary_key", "usage_rollups_user_id_hour_index"],
      options: [
        ["usage_model_rollups", ["fillfactor=75"]],
        ["usage_rollups", ["fillfactor=75"]],
      ],
    });
    expect((await migrator.migrateTo("0019_set_based_ledger_batches")).error).toBeUndefined();
    expect(await shape()).toEqual({
      indexes: ["usage_rollups_primary_key", "usage_rollups_user_id_hour_covering_index"],
      options: [
        ["usage_model_rollups", null],
        ["usage_rollups", null],
      ],
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await shape()).toEqual(migrated);
  });
});
