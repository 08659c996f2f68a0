import { describe, expect, it } from "vitest";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { countUsageLogsForUser } from "./count-usage-logs-for-user.js";
import { createSqliteUsageLogInserter } from "./create-sqlite-usage-log-inserter.js";
import { insertUsageLogs } from "./insert-usage-logs.js";
import type { NewUsageLog } from "./insert-usage-logs.js";
import { listUsageLogsForUser } from "./list-usage-logs-for-user.js";

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
    reasoningTokens: 4,
    quota: 1234,
    latencyMs: 250,
    status: "success",
    errorMessage: null,
    createdTime: 1000,
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
    expect(await insertUsageLogs(db, [streamed, failed])).toBe(2);
    expect(await insertUsageLogs(db, [])).toBe(0);
    const rows = await listUsageLogsForUser(db, { userId: 10 }, { limit: 10, offset: 0 });
    expect(rows).toEqual([
      { ...failed, id: expect.any(Number) },
      { ...streamed, id: expect.any(Number) },
    ]);
  });

  it("filters by token, model and time range, and pages newest first", async () => {
    const userId = 20;
    await insertUsageLogs(db, [
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
