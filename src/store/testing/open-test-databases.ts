import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";
import type { DatabaseDialect } from "../database-dialect.js";
import type { GatewayDatabase } from "../gateway-database.js";
import { openDatabase } from "../open-database.js";

export interface TestDatabase {
  name: DatabaseDialect;
  database: GatewayDatabase;
}

export interface OpenTestDatabasesOptions {
  /** PostgreSQL pool size (default 10). */
  postgresPoolSize?: number;
  /**
   * Register an `afterAll` that closes both databases and drops the PostgreSQL schema (default
   * true). Needs the call to run while vitest collects the file, e.g. top-level await.
   */
  cleanUpAfterAll?: boolean;
}

export const DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

/**
 * A migrated SQLite (in memory) and a migrated PostgreSQL database for one test file. The
 * PostgreSQL one lives in a fresh schema `t_<random>` so test files can run in parallel against
 * one server; `TEST_DATABASE_URL` picks the server. Closing it drops the schema.
 *
 *   const testDatabases = await openTestDatabases();
 *   describe.each(testDatabases)('$name', ({ database }) => { ... });
 */
export async function openTestDatabases(options: OpenTestDatabasesOptions = {}): Promise<TestDatabase[]> {
  const sqlite = await openDatabase("sqlite::memory:");
  let postgres: GatewayDatabase;
  try {
    postgres = await openPostgresInFreshSchema(options.postgresPoolSize ?? 10);
  } catch (error) {
    await sqlite.close();
    throw error;
  }
  const testDatabases: TestDatabase[] = [
    { name: "sqlite", database: sqlite },
    { name: "postgres", database: postgres },
  ];
  if (options.cleanUpAfterAll ?? true) {
    afterAll(async () => {
      await Promise.all(testDatabases.map(({ database }) => database.close()));
    });
  }
  return testDatabases;
}

async function openPostgresInFreshSchema(poolSize: number): Promise<GatewayDatabase> {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  const schema = `t_${randomBytes(6).toString("hex")}`;
  await runAdministrativeStatement(databaseUrl, `create schema ${schema}`);
  let database: GatewayDatabase;
  try {
    database = await openDatabase(databaseUrl, { postgresSchema: schema, postgresPoolSize: poolSize });
  } catch (error) {
    await runAdministrativeStatement(databaseUrl, `drop schema if exists ${schema} cascade`);
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    await database.close();
    await runAdministrativeStatement(databaseUrl, `drop schema if exists ${schema} cascade`);
  };
  return { db: database.db, dialect: database.dialect, close: () => (closing ??= close()) };
}

async function runAdministrativeStatement(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot connect to the test PostgreSQL server (set TEST_DATABASE_URL; default ${DEFAULT_TEST_DATABASE_URL}): ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
