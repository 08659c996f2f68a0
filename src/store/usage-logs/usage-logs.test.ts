import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { countUsageLogsForUser } from "./count-usage-logs-for-user.js";
import { aggregateUsageRollups } from "./aggregate-usage-rollups.js";
import { createSqliteUsageLogInserter } from "./create-sqlite-usage-log-inserter.js";
import { insertUsageLogs } from "./insert-usage-logs.js";
import type { NewUsageLog } from "./insert-usage-logs.js";
import { listUsageLogsForUser } from "./list-usage-logs-for-user.js";
import { findUsageLogById, listUsageLogsByCursor } from "./list-usage-logs-by-cursor.js";
import { deleteOldestUsageRollupHourBefore, deleteUsageLogsCreatedBefore } from "./delete-expired-usage.js";
import { readModelRollupsAndSums, readRollupsAndRowSums } from "../../../test/support/compare-rollups-with-rows.js";

const testDatabases = await openTestDatabases();

function usageLog(overrides: Partial<NewUsageLog>): NewUsageLog {
  return {
    userId: 1,
    tokenId: 1,
    tokenName: "token",
    model: "gpt-4o",
    channelId: 7,
    requestId: "request",
    isStream: false,
    promptTokens: 10,
    completionTokens: 20,
    cachedTokens: 3,
    cacheWriteTokens: 2,
    reasoningTokens: 4,
    quota: 1234,
    latencyMs: 250,
    status: "success",
    errorMessage: null,
    createdTime: 1000,
    group: "default",
    ...overrides,
  };
}

describe.each(testDatabases)("usage logs on $name", ({ database }) => {
  const { db } = database;

  it("inserts a batch and reads every field back", async () => {
    const streamed = usageLog({
      userId: 10,
      requestId: "r-stream",
      isStream: true,
      quota: 5_000_000_000,
      channelId: null,
    });
    const failed = usageLog({
      userId: 10,
      requestId: "r-error",
      status: "error",
      errorMessage: "upstream timed out",
      createdTime: 1001,
    });
    expect(await insertUsageLogs(db, database.dialect, [streamed, failed])).toBe(2);
    expect(await insertUsageLogs(db, database.dialect, [])).toBe(0);
    const rows = await listUsageLogsForUser(db, { userId: 10 }, { limit: 10, offset: 0 });
    expect(rows).toEqual([
      { ...failed, id: expect.any(Number) },
      { ...streamed, id: expect.any(Number) },
    ]);
  });

  it("filters by token, model and time range, and pages newest first", async () => {
    const userId = 20;
    await insertUsageLogs(db, database.dialect, [
      usageLog({ userId, tokenId: 1, model: "a", createdTime: 100, requestId: "r1" }),
      usageLog({ userId, tokenId: 1, model: "b", createdTime: 200, requestId: "r2" }),
      usageLog({ userId, tokenId: 2, model: "a", createdTime: 300, requestId: "r3" }),
      usageLog({ userId, tokenId: 2, model: "a", createdTime: 400, requestId: "r4" }),
      usageLog({ userId: 21, tokenId: 1, model: "a", createdTime: 250, requestId: "other user" }),
    ]);
    const requestIds = async (filter: Parameters<typeof listUsageLogsForUser>[1], limit = 10, offset = 0) =>
      (await listUsageLogsForUser(db, filter, { limit, offset })).map((row) => row.requestId);

    expect(await requestIds({ userId })).toEqual(["r4", "r3", "r2", "r1"]);
    expect(await requestIds({ userId }, 2, 1)).toEqual(["r3", "r2"]);
    expect(await requestIds({ userId, tokenId: 1 })).toEqual(["r2", "r1"]);
    expect(await requestIds({ userId, model: "a" })).toEqual(["r4", "r3", "r1"]);
    expect(await requestIds({ userId, startTime: 200, endTime: 300 })).toEqual(["r3", "r2"]);
    expect(await requestIds({ userId, tokenId: 2, model: "a", startTime: 350 })).toEqual(["r4"]);

    expect(await countUsageLogsForUser(db, { userId })).toBe(4);
    expect(await countUsageLogsForUser(db, { userId, model: "a", endTime: 300 })).toBe(2);
    expect(await countUsageLogsForUser(db, { userId: 999 })).toBe(0);
  });
});

describe("the SQLite one-row inserter", () => {
  it("writes every field as the batched insert does, visible at once on the connection", async () => {
    const sqlite = testDatabases.find((testDatabase) => testDatabase.name === "sqlite")!.database;
    const insertOne = createSqliteUsageLogInserter(sqlite.sqliteConnection!);
    const streamed = usageLog({
      userId: 90,
      requestId: "one-stream",
      isStream: true,
      quota: 5_000_000_000,
      channelId: null,
    });
    const failed = usageLog({
      userId: 90,
      requestId: "one-error",
      status: "error",
      errorMessage: "upstream timed out",
      createdTime: 1001,
    });
    await sqlite.sqliteCommitWindow!.run(() => {
      insertOne(streamed);
      insertOne(failed);
    });
    expect(await listUsageLogsForUser(sqlite.db, { userId: 90 }, { limit: 10, offset: 0 })).toEqual([
      { ...failed, id: expect.any(Number) },
      { ...streamed, id: expect.any(Number) },
    ]);
  });
});

describe.each(testDatabases)("hourly rollups, keyset pages and retention on $name", ({ database }) => {
  const { db } = database;

  it("adds every row to its hour's rollup in the same write, batched or one by one, equal to the rows' sums", async () => {
    const userId = 300;
    const hour = 1_767_225_600;
    // Two rows of one key in one batch (one upsert cannot touch a row twice), a second batch onto the same key,
    // another hour, another channel, a failed request with no channel, another group.
    await insertUsageLogs(db, database.dialect, [
      usageLog({ userId, requestId: "h1", createdTime: hour + 5, cachedTokens: 1, cacheWriteTokens: 6 }),
      usageLog({ userId, requestId: "h2", createdTime: hour + 3_599, latencyMs: 50 }),
      usageLog({ userId, requestId: "h3", createdTime: hour + 3_600 }),
      usageLog({ userId, requestId: "h4", createdTime: hour + 10, channelId: 8 }),
    ]);
    await insertUsageLogs(db, database.dialect, [
      usageLog({ userId, requestId: "h5", createdTime: hour + 20, quota: 1 }),
      usageLog({ userId, requestId: "h6", createdTime: hour + 30, status: "error", channelId: null, quota: 0 }),
      usageLog({ userId, requestId: "h7", createdTime: hour + 40, group: "vip" }),
    ]);
    if (database.sqliteConnection && database.sqliteCommitWindow) {
      const insertOne = createSqliteUsageLogInserter(database.sqliteConnection);
      await database.sqliteCommitWindow.run(() => {
        insertOne(usageLog({ userId, requestId: "h8", createdTime: hour + 50 }));
        insertOne(usageLog({ userId, requestId: "h9", createdTime: hour + 60, status: "error", channelId: null }));
      });
    }
    const { rollups, fromRows } = await readRollupsAndRowSums(db);
    expect(rollups).toEqual(fromRows);
    const { modelRollups, fromRows: modelsFromRows } = await readModelRollupsAndSums(db);
    expect(modelRollups).toEqual(modelsFromRows);
    const mine = rollups.filter((row) => row.user_id === userId);
    const oneBy = database.sqliteConnection ? 1 : 0;
    // Every key of the hour in one row: six rows of the batches, two one by one.
    expect(modelRollups.find((row) => row.hour === hour && row.model === "gpt-4o")).toMatchObject({
      requests: 6 + 2 * oneBy,
      errors: 1 + oneBy,
    });
    expect(mine.find((row) => row.hour === hour && row.channel_id === 7 && row.group_name === "default")).toEqual({
      hour,
      user_id: userId,
      token_id: 1,
      model: "gpt-4o",
      channel_id: 7,
      group_name: "default",
      requests: 3 + oneBy,
      errors: 0,
      prompt_tokens: 10 * (3 + oneBy),
      completion_tokens: 20 * (3 + oneBy),
      cached_tokens: 1 + 3 * (2 + oneBy),
      cache_write_tokens: 6 + 2 * (2 + oneBy),
      quota: 1234 * (2 + oneBy) + 1,
      latency_ms: 250 * (2 + oneBy) + 50,
    });
    expect(mine.find((row) => row.channel_id === 0)).toMatchObject({ requests: 1 + oneBy, errors: 1 + oneBy });
    expect(mine.find((row) => row.group_name === "vip")).toMatchObject({ requests: 1 });
    expect(mine.find((row) => row.hour === hour + 3_600)).toMatchObject({ requests: 1 });
  });

  it("pages every user's rows newest first by cursor and finds one row by id", async () => {
    const userId = 400;
    await insertUsageLogs(
      db,
      database.dialect,
      Array.from({ length: 5 }, (_, index) => usageLog({ userId, requestId: `c${index}`, createdTime: 2_000 + index })),
    );
    const first = await listUsageLogsByCursor(db, { userId }, { limit: 2 });
    expect(first.map((row) => row.requestId)).toEqual(["c4", "c3"]);
    const second = await listUsageLogsByCursor(db, { userId }, { limit: 2, after: first[1]! });
    expect(second.map((row) => row.requestId)).toEqual(["c2", "c1"]);
    const last = await listUsageLogsByCursor(db, { userId }, { limit: 2, after: second[1]! });
    expect(last.map((row) => row.requestId)).toEqual(["c0"]);
    expect(await findUsageLogById(db, last[0]!.id)).toMatchObject({ requestId: "c0", cacheWriteTokens: 2 });
    expect(await findUsageLogById(db, 99_999_999)).toBeUndefined();
  });

  // On SQLite the batch runs on the raw connection (timed alone); it must still wait for a transaction under way
  // through Kysely, not join it and be rolled back with it.
  it("deletes a batch outside any transaction under way: one rolled back meanwhile leaves the delete done", async () => {
    const userId = 501;
    const old = 1_500_000_000;
    await insertUsageLogs(
      db,
      database.dialect,
      [0, 1, 2].map((index) => usageLog({ userId, requestId: `r${index}`, createdTime: old + index })),
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun!: () => void;
    const inTransaction = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const transaction = db.transaction().execute(async (transaction) => {
      await insertUsageLogs(transaction, database.dialect, [usageLog({ userId, requestId: "rolled-back" })]);
      begun();
      await released;
      throw new Error("rolled back");
    });
    await inTransaction;
    const deleting = deleteUsageLogsCreatedBefore(database, old + 3, 100);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(transaction).rejects.toThrow("rolled back");
    expect((await deleting).rows).toBeGreaterThanOrEqual(3);
    expect(await countUsageLogsForUser(db, { userId })).toBe(0);
  });

  it("deletes rows before a time in batches and rollups an hour at a time, leaving the rest", async () => {
    const userId = 500;
    const day = 1_600_000_000 - (1_600_000_000 % 3_600);
    await insertUsageLogs(
      db,
      database.dialect,
      Array.from({ length: 7 }, (_, index) =>
        usageLog({ userId, requestId: `d${index}`, createdTime: day + index * 3_600 }),
      ),
    );
    // Rows of the other tests are older still: gone first, whatever their number.
    while ((await deleteUsageLogsCreatedBefore(database, day, 1_000)).rows > 0);
    while ((await deleteOldestUsageRollupHourBefore(db, day)) > 0);
    const before = await countUsageLogsForUser(db, { userId });
    const batch = await deleteUsageLogsCreatedBefore(database, day + 3 * 3_600, 2);
    expect(batch.rows).toBe(2);
    // The lock's time is read from the database's own clock on PostgreSQL: a number, whatever the driver's type.
    expect(batch.lockHeldMilliseconds).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(batch.lockHeldMilliseconds)).toBe(true);
    expect((await deleteUsageLogsCreatedBefore(database, day + 3 * 3_600, 2)).rows).toBe(1);
    expect((await deleteUsageLogsCreatedBefore(database, day + 3 * 3_600, 2)).rows).toBe(0);
    expect(await countUsageLogsForUser(db, { userId })).toBe(before - 3);
    expect(await countUsageLogsForUser(db, { userId, endTime: day + 3 * 3_600 - 1 })).toBe(0);
    const hours = async () =>
      (await db.selectFrom("usage_rollups").select("hour").where("user_id", "=", userId).orderBy("hour").execute()).map(
        (row) => Number(row.hour),
      );
    expect(await hours()).toHaveLength(7);
    // An hourly rollup and its hour and model rollup each time.
    expect(await deleteOldestUsageRollupHourBefore(db, day + 2 * 3_600)).toBe(2);
    expect(await deleteOldestUsageRollupHourBefore(db, day + 2 * 3_600)).toBe(2);
    expect(await deleteOldestUsageRollupHourBefore(db, day + 2 * 3_600)).toBe(0);
    expect(await hours()).toEqual([2, 3, 4, 5, 6].map((index) => day + index * 3_600));
    const { modelRollups, fromRollups } = await readModelRollupsAndSums(db);
    expect(modelRollups).toEqual(fromRollups);
    expect(modelRollups.some((row) => row.hour < day + 2 * 3_600)).toBe(false);
  });

  it("answers every user's statistics from the hour and model rollups and a user's from the hourly ones", async () => {
    const hour = 1_800_000_000 - (1_800_000_000 % 3_600);
    await insertUsageLogs(db, database.dialect, [
      usageLog({ userId: 600, tokenId: 61, requestId: "s1", createdTime: hour + 1, model: "stat-a", quota: 5 }),
      usageLog({ userId: 601, tokenId: 62, requestId: "s2", createdTime: hour + 2, model: "stat-a", quota: 7 }),
      usageLog({ userId: 601, tokenId: 62, requestId: "s3", createdTime: hour + 3, model: "stat-b", quota: 11 }),
    ]);
    const range = { startHour: hour, endHour: hour + 3_600 };
    const summary = (rows: Awaited<ReturnType<typeof aggregateUsageRollups>>) =>
      rows.map((row) => [row.model, row.requests, row.quota]);
    expect(summary(await aggregateUsageRollups(db, { userId: undefined, ...range }, 86_400))).toEqual([
      ["stat-a", 2, 12],
      ["stat-b", 1, 11],
    ]);
    expect(summary(await aggregateUsageRollups(db, { userId: 601, ...range }, 3_600))).toEqual([
      ["stat-a", 1, 7],
      ["stat-b", 1, 11],
    ]);
    expect(summary(await aggregateUsageRollups(db, { userId: undefined, tokenId: 61, ...range }, 3_600))).toEqual([
      ["stat-a", 1, 5],
    ]);
    // What every user's statistics read is the coarser table: a row only there shows in them, not in a user's.
    await db
      .insertInto("usage_model_rollups")
      .values({
        hour: hour + 3_600,
        model: "stat-c",
        requests: 3,
        errors: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        cached_tokens: 0,
        cache_write_tokens: 0,
        quota: 9,
        latency_ms: 0,
      })
      .execute();
    const wider = { startHour: hour, endHour: hour + 7_200 };
    expect(summary(await aggregateUsageRollups(db, { userId: undefined, model: "stat-c", ...wider }, 3_600))).toEqual([
      ["stat-c", 3, 9],
    ]);
    expect(await aggregateUsageRollups(db, { userId: 601, model: "stat-c", ...wider }, 3_600)).toEqual([]);
  });
});
