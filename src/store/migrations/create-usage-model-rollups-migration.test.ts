import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../database-schema.js";
import { createMigrationProvider } from "./create-migration-provider.js";

describe("the hour and model rollups migration", () => {
  it("fills the new rollups from the hourly ones an existing deployment has, so statistics keep their history", async () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }) });
    const migrator = new Migrator({ db, provider: createMigrationProvider("sqlite") });
    expect((await migrator.migrateTo("0013_batched_ledger_functions")).error).toBeUndefined();
    await sql`insert into usage_rollups (hour, user_id, token_id, model, channel_id, group_name, requests, errors,
                prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
              values (3600, 1, 1, 'a', 1, 'default', 2, 1, 10, 20, 3, 4, 50, 60),
                     (3600, 2, 5, 'a', 2, 'vip', 1, 0, 1, 2, 0, 0, 5, 6),
                     (3600, 2, 5, 'b', 2, 'vip', 4, 0, 8, 8, 8, 8, 8, 8),
                     (7200, 1, 1, 'a', 1, 'default', 1, 0, 1, 1, 1, 1, 1, 1)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db.selectFrom("usage_model_rollups").selectAll().orderBy("hour").orderBy("model").execute();
    expect(rows.map((row) => [row.hour, row.model, row.requests, row.errors, row.prompt_tokens, row.quota])).toEqual([
      [3600, "a", 3, 1, 11, 55],
      [3600, "b", 4, 0, 8, 8],
      [7200, "a", 1, 0, 1, 1],
    ]);
    // A user's statistics (and one token's) read the index alone, every summed column included.
    const plan = await sql<{ detail: string }>`explain query plan
      select hour, model, sum(requests), sum(errors), sum(prompt_tokens), sum(completion_tokens), sum(cached_tokens),
        sum(cache_write_tokens), sum(quota), sum(latency_ms)
      from usage_rollups where user_id = 1 and token_id = 1 and hour >= 0 and hour < 9000
      group by hour, model`.execute(db);
    expect(plan.rows.map((row) => row.detail).join("\n")).toContain(
      "COVERING INDEX usage_rollups_user_id_hour_covering_index",
    );
    await db.destroy();
  });
});
