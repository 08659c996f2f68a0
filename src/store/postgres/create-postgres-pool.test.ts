import crypto from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseUnavailableError, UnstorableTextError } from "../../errors/gateway-error.js";
import { DEFAULT_TEST_DATABASE_URL } from "../testing/open-test-databases.js";
import { createPostgresPool, defaultPostgresTimeouts } from "./create-postgres-pool.js";

// The machine's PostgreSQL (DESIGN.md), faults provoked for real.
const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const applicationName = `pool_test_${crypto.randomBytes(4).toString("hex")}`;
const url = new URL(databaseUrl);
url.searchParams.set("application_name", applicationName);
const db = new Kysely<Record<string, never>>({
  dialect: new PostgresDialect({
    pool: createPostgresPool({
      connectionString: url.toString(),
      max: 2,
      timeouts: { ...defaultPostgresTimeouts, statementTimeoutMs: 300 },
      types: pg.types,
    }),
  }),
});
afterAll(() => db.destroy());

async function terminateOurConnections(): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [
      applicationName,
    ]);
  } finally {
    await client.end();
  }
}

describe("createPostgresPool", () => {
  // PostgreSQL's text cannot hold NUL, which the embedded mode stores: a 400 in the surface's envelope, not a 500.
  it("fails a statement given text with a NUL character as the caller's bad input, and keeps the connection", async () => {
    const failure = await sql`select ${"a\u0000b"}::text as text`.execute(db).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnstorableTextError);
    expect(failure).toMatchObject({ status: 400, code: "invalid_text" });
    const json = await sql`select ${'{"a":"\\u0000"}'}::jsonb as json`.execute(db).catch((error: unknown) => error);
    expect(json).toBeInstanceOf(UnstorableTextError);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it("fails the transaction of a connection terminated while checked out (no unhandled error), then serves on a new one", async () => {
    const failure = await db
      .transaction()
      .execute(async (transaction) => {
        await sql`select 1`.execute(transaction);
        await terminateOurConnections();
        // The termination reaches the idle-in-transaction connection as an error event, then the next query fails.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sql`select 1`.execute(transaction);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as DatabaseUnavailableError).status).toBe(503);
    const answer = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(answer.rows).toEqual([{ one: 1 }]);
  });

  it("turns a statement cancelled by statement_timeout into DatabaseUnavailableError, and keeps the connection", async () => {
    await expect(sql`select pg_sleep(2)`.execute(db)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it("passes SQL errors through as they are", async () => {
    const failure = await sql`select * from no_such_table_here`.execute(db).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as { code?: string }).code).toBe("42P01");
  });

  it("prepares a text with parameters by name from its second run, once per connection; a one-off stays unnamed", async () => {
    const marker = `prepared_${crypto.randomBytes(4).toString("hex")}`;
    const repeated = (value: number) =>
      sql<{ value: number }>`select ${value}::integer as value, ${marker}::text as marker`;
    const preparedTexts = async () =>
      (
        await db
          .connection()
          .execute((connection) =>
            sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection),
          )
      ).rows
        .map((row) => row.statement)
        .filter((statement) => statement.includes("as marker"));
    await repeated(1).execute(db);
    expect(await preparedTexts()).toEqual([]);
    // Both connections of the pool are taken at once, several times: each prepares the text once for itself.
    const answers = await Promise.all([1, 2, 3, 4].map((value) => repeated(value).execute(db)));
    expect(answers.map((answer) => answer.rows[0]!.value)).toEqual([1, 2, 3, 4]);
    expect(await preparedTexts()).toHaveLength(1);
  });

  it("drops a connection whose prepared statement went stale when its table changed shape, and serves on a new one", async () => {
    const table = `stale_${crypto.randomBytes(4).toString("hex")}`;
    await sql`create table ${sql.table(table)} (id integer)`.execute(db);
    try {
      await sql`insert into ${sql.table(table)} values (1)`.execute(db);
      const read = () => sql`select * from ${sql.table(table)} where id = ${1}`.execute(db);
      // One connection at a time (a transaction-less loop on a pool of two can take either): run it on both.
      for (let run = 0; run < 4; run += 1) await Promise.all([read(), read()]);
      await sql`alter table ${sql.table(table)} add column extra integer`.execute(db);
      const failures = await Promise.all([read(), read()].map((answer) => answer.catch((error: unknown) => error)));
      for (const failure of failures) expect((failure as { code?: string }).code).toBe("0A000");
      const afterwards = await read();
      expect(afterwards.rows).toEqual([{ id: 1, extra: null }]);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    }
  });

  it("sends every statement unnamed when prepared statements are off (0), as PgBouncer in transaction mode needs", async () => {
    const unnamed = new Kysely<Record<string, never>>({
      dialect: new PostgresDialect({
        pool: createPostgresPool({
          connectionString: url.toString(),
          max: 1,
          maximumPreparedStatements: 0,
          timeouts: defaultPostgresTimeouts,
          types: pg.types,
        }),
      }),
    });
    try {
      for (let run = 0; run < 3; run += 1) await sql`select ${run}::integer as unnamed_run`.execute(unnamed);
      const prepared = await sql<{ count: string | number }>`
        select count(*) as count from pg_prepared_statements`.execute(unnamed);
      expect(Number(prepared.rows[0]!.count)).toBe(0);
    } finally {
      await unnamed.destroy();
    }
  });
});
