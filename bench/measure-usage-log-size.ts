import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { openDatabase } from "../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL } from "../src/store/testing/open-test-databases.js";
import { insertUsageLogs } from "../src/store/usage-logs/insert-usage-logs.js";
import { syntheticUsageRow } from "./synthetic-usage-row.js";

// What one usage row costs on disk, measured: ROWS rows shaped like the relay's (request ids of 36 characters,
// token names and models of ordinary length, one in fifty failed with a message) spread over 30 days, written with
// their rollups through the same insert the gateway uses, on SQLite (file size, indexes included) and PostgreSQL
// (pg_total_relation_size: table, indexes, TOAST). Run: npx tsx bench/measure-usage-log-size.ts [rows]
const ROWS = Number(process.argv[2] ?? 200_000);
const BATCH = 500;
const start = 1_767_225_600;

async function fill(database: Awaited<ReturnType<typeof openDatabase>>): Promise<void> {
  for (let offset = 0; offset < ROWS; offset += BATCH) {
    const logs = Array.from({ length: Math.min(BATCH, ROWS - offset) }, (_, index) =>
      syntheticUsageRow(offset + index, ROWS, start, 30),
    );
    await insertUsageLogs(database.db, database.dialect, logs);
  }
}

function report(name: string, rowBytes: number, rollupBytes: number, rollupRows: number): void {
  const perRow = rowBytes / ROWS;
  const perDay = perRow * 1_000_000;
  console.log(
    `${name}: ${ROWS} rows, ${(rowBytes / 1e6).toFixed(1)} MB → ${perRow.toFixed(0)} bytes per row (indexes included), ` +
      `${Math.round(1e9 / perRow).toLocaleString("en")} rows per GB; 1M requests/day = ${(perDay / 1e9).toFixed(2)} GB/day, ` +
      `${((perDay * 90) / 1e9).toFixed(1)} GB at 90 days' retention. Rollups: ${rollupRows} rows, ` +
      `${(rollupBytes / rollupRows).toFixed(0)} bytes per rollup row.`,
  );
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "usage-size-"));
try {
  const file = path.join(folder, "size.db");
  const sqlite = await openDatabase(`sqlite:${file}`);
  const sizeOf = async (table: string) => {
    const result = await sql<{
      bytes: number;
    }>`select sum(pgsize) as bytes from dbstat where name = ${table} or name in (select name from sqlite_master where tbl_name = ${table} and type = 'index')`.execute(
      sqlite.db,
    );
    return Number(result.rows[0]?.bytes ?? 0);
  };
  await fill(sqlite);
  sqlite.sqliteCommitWindow?.commitNow();
  const rollupRows = Number(
    (await sql<{ count: number }>`select count(*) as count from usage_rollups`.execute(sqlite.db)).rows[0]!.count,
  );
  report("SQLite", await sizeOf("usage_logs"), await sizeOf("usage_rollups"), rollupRows);
  await sqlite.close();
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}

const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const schema = `t_size_${crypto.randomBytes(5).toString("hex")}`;
const admin = new pg.Client({ connectionString: postgresUrl });
await admin.connect();
await admin.query(`create schema ${schema}`);
try {
  const postgres = await openDatabase(postgresUrl, { postgresSchema: schema });
  await fill(postgres);
  await sql`vacuum analyze usage_logs`.execute(postgres.db);
  // Every partition of the table (the usage log is partitioned by month; a plain table is its own one-node tree).
  const bytes = async (table: string) =>
    Number(
      (
        await sql<{ bytes: string }>`select coalesce(sum(pg_total_relation_size(relid)), 0) as bytes
          from pg_partition_tree(${table}::regclass)`.execute(postgres.db)
      ).rows[0]!.bytes,
    );
  const rollupRows = Number(
    (await sql<{ count: string }>`select count(*) as count from usage_rollups`.execute(postgres.db)).rows[0]!.count,
  );
  report("PostgreSQL", await bytes("usage_logs"), await bytes("usage_rollups"), rollupRows);
  await postgres.close();
} finally {
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
}
