import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { createMigrationProvider } from "./create-migration-provider.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;
const db = postgres.db;

describe("deferred holds in batches (migration 0021, PostgreSQL)", () => {
  // The form of migration 0017 stays beside the new one, for instances of the version before during a rolling upgrade.
  it("adds run_ledger_cycle with each hold's cost beside the form before, and goes down to that form alone", async () => {
    const forms = async () => {
      const found = await sql<{ arguments: number }>`select pronargs as arguments from pg_proc
        where proname = 'run_ledger_cycle' and pronamespace = current_schema()::regnamespace
        order by pronargs`.execute(db);
      return found.rows.map((row) => Number(row.arguments));
    };
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
    const migrator = new Migrator({ db, provider: createMigrationProvider("postgres"), migrationTableSchema: schema });
    expect(await forms()).toEqual([10, 11]);
    expect((await migrator.migrateTo("0020_heap_only_rollup_updates")).error).toBeUndefined();
    expect(await forms()).toEqual([10]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await forms()).toEqual([10, 11]);
  });
});
