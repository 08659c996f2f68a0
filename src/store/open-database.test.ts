import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./open-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "./testing/open-test-databases.js";
import { insertTestUser } from "./testing/insert-test-user.js";

const temporaryFolder = mkdtempSync(join(tmpdir(), "gateway-store-"));
afterAll(() => rmSync(temporaryFolder, { recursive: true, force: true }));

describe("openDatabase", () => {
  it("refuses an unknown scheme without echoing the rest of the URL", async () => {
    await expect(openDatabase("mysql://user:secret@host/db")).rejects.toThrow(
      "DATABASE_URL must start with sqlite: or postgres://",
    );
    await expect(openDatabase("mysql://user:secret@host/db")).rejects.not.toThrow("secret");
    await expect(openDatabase("sqlite:")).rejects.toThrow("needs a file path");
  });

  it("creates the folder and file of a SQLite database with WAL, busy timeout and foreign keys", async () => {
    const path = join(temporaryFolder, "nested", "folder", "gateway.db");
    const database = await openDatabase(`sqlite:${path}`);
    try {
      expect(database.dialect).toBe("sqlite");
      expect(existsSync(path)).toBe(true);
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(journal.rows[0]?.journal_mode).toBe("wal");
      const timeout = await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db);
      expect(timeout.rows[0]?.timeout).toBe(5000);
      const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
      expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
      await insertTestUser(database.db, { username: "persisted" });
    } finally {
      await database.close();
      await database.close();
    }
    // Reopening runs the migrations again, which must find nothing to do and keep the data.
    const reopened = await openDatabase(`sqlite:${path}`);
    try {
      const users = await reopened.db.selectFrom("users").select("username").execute();
      expect(users).toEqual([{ username: "persisted" }]);
    } finally {
      await reopened.close();
    }
  });

  it("opens sqlite::memory:", async () => {
    const database = await openDatabase("sqlite::memory:");
    const tables = await database.db.introspection.getTables();
    expect(tables.map((table) => table.name).sort()).toEqual(
      [
        "audit_log",
        "billing_groups",
        "channel_credential_failures",
        "channel_health",
        "channel_health_rules",
        "channel_last_tests",
        "channels",
        "model_prices",
        "quota_ledger",
        "quota_reservations",
        "redemption_codes",
        "response_routes",
        "task_callback_deliveries",
        "tasks",
        "tokens",
        "usage_logs",
        "usage_model_rollups",
        "usage_rollups",
        "user_webhook_secrets",
        "users",
      ].sort(),
    );
    await database.close();
  });

  it("opens PostgreSQL, parses bigint as number and reruns migrations idempotently", async () => {
    const [, postgres] = await openTestDatabases({ cleanUpAfterAll: false });
    try {
      expect(postgres!.name).toBe("postgres");
      const result = await sql<{ big: number }>`select cast(9007199254740991 as bigint) as big`.execute(
        postgres!.database.db,
      );
      expect(result.rows[0]?.big).toBe(Number.MAX_SAFE_INTEGER);
      const schema = await sql<{ schema: string }>`select current_schema() as schema`.execute(postgres!.database.db);
      expect(schema.rows[0]?.schema).toMatch(/^t_[0-9a-f]{12}$/);
      const again = await openDatabase(process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL, {
        postgresSchema: schema.rows[0]!.schema,
      });
      expect(again.dialect).toBe("postgres");
      await again.close();
    } finally {
      await postgres!.database.close();
    }
  });

  it("accepts the postgresql:// spelling and refuses a bad schema name", async () => {
    const url = (process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL).replace(/^postgres:\/\//, "postgresql://");
    await expect(openDatabase(url, { postgresSchema: "bad; drop" })).rejects.toThrow("Invalid PostgreSQL schema name");
  });
});
