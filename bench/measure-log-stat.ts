import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { openDatabase } from "../src/store/open-database.js";
import { aggregateUsageRollups } from "../src/store/usage-logs/aggregate-usage-rollups.js";
import { insertUsageLogs } from "../src/store/usage-logs/insert-usage-logs.js";
import { syntheticUsageRow } from "./synthetic-usage-row.js";

// The statistics query of GET /api/log/stat over 30 days on a SQLite file holding ROWS usage rows (default 2
// million, spread over those 30 days, written with their rollups through the gateway's own insert): the median of
// 15 runs, every user (scope=all) and one user, by day and by hour; beside it the same sums grouped from the raw
// rows, as the gateway answered before rollups. Run: npx tsx bench/measure-log-stat.ts [rows]
const ROWS = Number(process.argv[2] ?? 2_000_000);
const BATCH = 500;
const DAYS = 30;
const start = 1_767_225_600;
const end = start + DAYS * 86_400;

async function median(run: () => Promise<unknown>, times = 15): Promise<number> {
  await run();
  const durations: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const began = performance.now();
    await run();
    durations.push(performance.now() - began);
  }
  durations.sort((left, right) => left - right);
  return durations[Math.floor(durations.length / 2)]!;
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "log-stat-"));
try {
  const database = await openDatabase(`sqlite:${path.join(folder, "stat.db")}`);
  const seedingStarted = performance.now();
  for (let offset = 0; offset < ROWS; offset += BATCH) {
    const logs = Array.from({ length: Math.min(BATCH, ROWS - offset) }, (_, index) =>
      syntheticUsageRow(offset + index, ROWS, start, DAYS),
    );
    await insertUsageLogs(database.db, database.dialect, logs);
  }
  const rollupRows = Number(
    (await sql<{ count: number }>`select count(*) as count from usage_rollups`.execute(database.db)).rows[0]!.count,
  );
  console.log(
    `seeded ${ROWS.toLocaleString("en")} rows (${rollupRows.toLocaleString("en")} rollup rows) in ${((performance.now() - seedingStarted) / 1000).toFixed(0)} s`,
  );
  const stat = (userId: number | undefined, bucketSeconds: number) => () =>
    aggregateUsageRollups(database.db, { userId, startHour: start, endHour: end }, bucketSeconds);
  const figures = {
    "every user, by day": await median(stat(undefined, 86_400)),
    "every user, by hour": await median(stat(undefined, 3_600)),
    "one user, by day": await median(stat(7, 86_400)),
  };
  for (const [name, milliseconds] of Object.entries(figures))
    console.log(`/api/log/stat query, 30 days, ${name}: ${milliseconds.toFixed(1)} ms (median of 15)`);
  const raw = await median(
    () =>
      sql`select created_time - (created_time % 86400) as time, model, count(*), sum(prompt_tokens), sum(completion_tokens), sum(quota)
          from usage_logs where created_time >= ${start} and created_time < ${end} group by 1, 2`.execute(database.db),
    3,
  );
  console.log(`the same from the raw rows (before rollups), every user, by day: ${raw.toFixed(0)} ms (median of 3)`);
  await database.close();
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
