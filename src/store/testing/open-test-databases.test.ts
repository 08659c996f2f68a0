import pg from "pg";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "./open-test-databases.js";

async function schemaExists(schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query("select 1 from pg_namespace where nspname = $1", [schema]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe("openTestDatabases", () => {
  it("gives a SQLite and a PostgreSQL database, the latter in a schema dropped on close", async () => {
    const testDatabases = await openTestDatabases({ cleanUpAfterAll: false });
    expect(testDatabases.map(({ name, database }) => [name, database.dialect])).toEqual([
      ["sqlite", "sqlite"],
      ["postgres", "postgres"],
    ]);
    const postgres = testDatabases[1]!.database;
    const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(postgres.db);
    const schema = result.rows[0]!.schema;
    expect(await schemaExists(schema)).toBe(true);
    await Promise.all(testDatabases.map(({ database }) => database.close()));
    expect(await schemaExists(schema)).toBe(false);
  });
});
