import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { createRequestId } from "../../src/http/create-request-id.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { insertUsageLogs, type NewUsageLog } from "../../src/store/usage-logs/insert-usage-logs.js";
import { startUsageRetention } from "../../src/usage-logs/start-usage-retention.js";
import { readRollupsAndRowSums } from "../support/compare-rollups-with-rows.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const DAY = 86_400;

function oldRow(index: number, createdTime: number): NewUsageLog {
  return {
    userId: 1,
    tokenId: 1,
    tokenName: "old",
    model: "model-old",
    channelId: 1,
    requestId: `old-${createdTime}-${index}`,
    isStream: false,
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    quota: 3,
    latencyMs: 7,
    status: "success",
    errorMessage: null,
    createdTime,
    group: "default",
  };
}

describe.each(testDatabases)("usage retention on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [{ name: "kept", type: "openai", base_url: upstream.url, key: "k", models: ["model-new"] }],
        pricing: { "model-new": { input: 1, output: 2 }, "model-old": { input: 1, output: 2 } },
        logs: { retention_days: 30, rollup_retention_days: 400, retention_batch_size: 100, retention_pause_ms: 1 },
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("deletes raw rows past retention in batches while requests go on, keeping rollups and the newer rows", async () => {
    const { context } = gateway.gateway;
    const now = context.now();
    const { db, dialect } = context.database;
    // 1,000 rows 40 days old (past the 30 days), 10 rows 10 days old, rollups of 500 days ago (past 400).
    for (let batch = 0; batch < 10; batch += 1)
      await insertUsageLogs(
        db,
        dialect,
        Array.from({ length: 100 }, (_, index) => oldRow(batch * 100 + index, now - 40 * DAY - batch)),
      );
    await insertUsageLogs(
      db,
      dialect,
      Array.from({ length: 10 }, (_, index) => oldRow(index, now - 10 * DAY)),
    );
    await insertUsageLogs(db, dialect, [oldRow(0, now - 500 * DAY)]);
    const statistics = async () =>
      (
        await gateway.client.management.GET("/api/log/stat", {
          params: { query: { scope: "all", start_time: now - 60 * DAY, end_time: now + 60 } },
        })
      ).data!.data.totals;
    const statisticsBefore = await statistics();
    expect(statisticsBefore.requests).toBe(1_010);

    const { key } = await createApiKey(gateway, { unlimitedQuota: true });
    const retention = startUsageRetention(context, { intervalMs: 3_600_000, firstPassAfterMs: 3_600_000 });
    const chat = async () => {
      const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "model-new", messages: [{ role: "user", content: "during retention" }] }),
      });
      await answer.arrayBuffer();
      return answer.status;
    };
    const [outcome, ...statuses] = await Promise.all([retention.runOnce(), ...Array.from({ length: 20 }, chat)]);
    await retention.stop();
    expect(statuses.every((status) => status === 200)).toBe(true);
    // The hourly rollup of that hour and its hour and model rollup.
    expect(outcome).toEqual({ deletedRows: 1_001, deletedRollups: 2, deletedReservations: 0, droppedPartitions: [] });

    const remaining = await db
      .selectFrom("usage_logs")
      .select((expression) => expression.fn.countAll<number>().as("count"))
      .where("created_time", "<", now - 30 * DAY)
      .executeTakeFirstOrThrow();
    expect(Number(remaining.count)).toBe(0);
    const kept = await gateway.client.management.GET("/api/log/", { params: { query: { size: 100 } } });
    expect(kept.data!.data.items.filter((item) => item.model === "model-old")).toHaveLength(10);
    expect(kept.data!.data.items.filter((item) => item.model === "model-new")).toHaveLength(20);
    // The statistics of the deleted rows stay: they read the rollups.
    expect((await statistics()).requests).toBe(1_010 + 20);
    const { rollups } = await readRollupsAndRowSums(db);
    expect(rollups.some((row) => row.hour < now - 400 * DAY)).toBe(false);
    if (dialect === "sqlite") {
      // The freed pages went back to the file system (incremental auto-vacuum).
      const free = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
      expect(Number(free.rows[0]!.freelist_count)).toBe(0);
    }
  });

  it("pauses after each batch at least four times the batch's own time, however short the configured pause", async () => {
    const { context } = gateway.gateway;
    const now = context.now();
    const { db, dialect } = context.database;
    for (let batch = 0; batch < 6; batch += 1)
      await insertUsageLogs(
        db,
        dialect,
        Array.from({ length: 100 }, (_, index) => oldRow(batch * 100 + index, now - 50 * DAY - batch)),
      );
    const steps: { endedAt: number; milliseconds: number; rows: number }[] = [];
    // The configured pause is 1 ms, far below four times a 100-row delete.
    const retention = startUsageRetention(context, {
      intervalMs: 3_600_000,
      firstPassAfterMs: 3_600_000,
      onStep: (step) => steps.push({ endedAt: performance.now(), milliseconds: step.milliseconds, rows: step.rows }),
    });
    await retention.runOnce();
    await retention.stop();
    // A full batch (100 rows, the configured size) is followed by a pause; the last, short one ends the deletes.
    const paused = steps.flatMap((step, index) => (step.rows === 100 && index + 1 < steps.length ? [index] : []));
    expect(paused.length).toBeGreaterThanOrEqual(5);
    for (const index of paused.map((previousIndex) => previousIndex + 1)) {
      const previous = steps[index - 1]!;
      const startedAt = steps[index]!.endedAt - steps[index]!.milliseconds;
      // Measured on the same clock as the job's own: the next batch starts no sooner than the pause after this one.
      expect(startedAt - previous.endedAt).toBeGreaterThanOrEqual(Math.max(1, 4 * previous.milliseconds) - 0.01);
    }
    // Some batch was long enough that four times it exceeds the configured 1 ms: the rule, not the setting, paused.
    expect(Math.max(...paused.map((index) => steps[index]!.milliseconds))).toBeGreaterThan(0.25);
  });

  it("deletes the ledger's settled rows past retention with the usage rows, keeping unsettled and newer ones", async () => {
    const { context } = gateway.gateway;
    const now = context.now();
    const { db } = context.database;
    // Ids as the gateway makes them, from their creation time; one row of an older version's random id.
    const row = (id: string, createdTime: number, settled: 0 | 1) => ({
      id,
      token_id: 1,
      user_id: 1,
      reserved: 10,
      settled,
      actual: settled ? 4 : null,
      created_time: createdTime,
      settled_time: settled ? createdTime : null,
      token_held: 1,
      wallet_held: 0,
    });
    const at = (daysAgo: number, index: number) => now - daysAgo * DAY + index;
    const oldSettled = Array.from({ length: 250 }, (_, index) =>
      row(createRequestId(at(40, index) * 1000), at(40, index), 1),
    );
    const oldUnsettled = row(createRequestId(at(40, 0) * 1000), at(40, 0), 0);
    const newSettled = row(createRequestId(at(10, 0) * 1000), at(10, 0), 1);
    const justBefore = row(createRequestId((now - 30 * DAY) * 1000 - 1), now - 30 * DAY - 1, 1);
    const justAfter = row(createRequestId((now - 30 * DAY + 1) * 1000), now - 30 * DAY + 1, 1);
    // Sorts below today's bound by its id, yet it is new: its own time keeps it.
    const randomIdNew = row("req_00000000000000000000000000000000", at(1, 0), 1);
    const randomIdOld = row("req_ffffffffffffffffffffffffffffffff", at(40, 0), 1);
    await db
      .insertInto("quota_reservations")
      .values([...oldSettled, oldUnsettled, newSettled, justBefore, justAfter, randomIdNew, randomIdOld])
      .execute();

    const retention = startUsageRetention(context, { intervalMs: 3_600_000, firstPassAfterMs: 3_600_000 });
    const outcome = await retention.runOnce();
    await retention.stop();

    // 251 rows in batches of 100: three batches.
    expect(outcome.deletedReservations).toBe(251);
    const left = await db.selectFrom("quota_reservations").select("id").execute();
    const leftIds = new Set(left.map((kept) => kept.id));
    expect(oldSettled.some((deleted) => leftIds.has(deleted.id))).toBe(false);
    expect(leftIds.has(justBefore.id)).toBe(false);
    // Recovery and the task lifecycle still own an unsettled row, however old.
    for (const kept of [oldUnsettled, newSettled, justAfter, randomIdNew]) expect(leftIds.has(kept.id)).toBe(true);
    // An older version's random id past the bound stays: the key range is all the job reads.
    expect(leftIds.has(randomIdOld.id)).toBe(true);
  });
});
