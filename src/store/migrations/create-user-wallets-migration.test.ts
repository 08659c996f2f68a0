import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../database-schema.js";
import { createMigrationProvider } from "./create-migration-provider.js";

describe("the wallets migration", () => {
  it("gives the users of an existing deployment unlimited wallets and their holds the token only", async () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }) });
    const migrator = new Migrator({ db, provider: createMigrationProvider("sqlite") });
    expect((await migrator.migrateTo("0006_task_callback_state")).error).toBeUndefined();
    await sql`insert into users (username, password_hash, display_name, role, created_time)
              values ('old-user', 'x', 'Old', 'user', 1)`.execute(db);
    await sql`insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time)
              values ('old-hold', 1, 1, 40, 0, null, 1, null)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(
      await db.selectFrom("users").select(["quota", "used_quota", "quota_unlimited", "allowed_groups"]).execute(),
    ).toEqual([{ quota: 0, used_quota: 0, quota_unlimited: 1, allowed_groups: "[]" }]);
    expect(await db.selectFrom("quota_reservations").select(["token_held", "wallet_held"]).execute()).toEqual([
      { token_held: 1, wallet_held: 0 },
    ]);
    // A wallet never goes below zero, whatever writes it.
    await expect(sql`update users set quota = -1`.execute(db)).rejects.toThrow(/CHECK/);
    await db.destroy();
  });
});
