import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import { InsufficientQuotaError } from "../errors/gateway-error.js";
import type { Logger } from "../logging/logger.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import { insertTestToken } from "../store/testing/insert-test-token.js";
import { insertTestUser } from "../store/testing/insert-test-user.js";
import { openTestDatabases } from "../store/testing/open-test-databases.js";
import { findTokenByIdForUser } from "../store/tokens/find-token-by-id-for-user.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import { countUsageLogsForUser } from "../store/usage-logs/count-usage-logs-for-user.js";
import { listUsageLogsForUser } from "../store/usage-logs/list-usage-logs-for-user.js";
import type { UsageLogEntry } from "./billing-service.js";
import { createBillingService } from "./create-billing-service.js";

// 200 concurrent cycles need real parallel connections on PostgreSQL.
const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });

const config: GatewayConfig = {
  ...loadConfig({ DATABASE_URL: "sqlite::memory:", GATEWAY_SECRET: "test-secret-0123456789abcdef" }),
  pricing: { "text-model": { input: 2, output: 4 }, "capped-model": { input: 1, output: 1, maxOutputTokens: 1000 } },
  groupRatios: { default: 1, vip: 1.2 },
  defaultMaxOutputTokens: 4096,
};

function recordingLogger(): { logger: Logger; warnings: unknown[][]; errors: unknown[][] } {
  const warnings: unknown[][] = [];
  const errors: unknown[][] = [];
  const logger = {
    warn: (...values: unknown[]) => warnings.push(values),
    error: (...values: unknown[]) => errors.push(values),
  };
  return { logger: logger as unknown as Logger, warnings, errors };
}

function setUp(database: GatewayDatabase, options: { flushIntervalMs?: number } = {}) {
  const clock = { now: 1_800_000_000 };
  const { logger, warnings, errors } = recordingLogger();
  const billing = createBillingService({ config, database, logger, now: () => clock.now }, options);
  return { billing, clock, warnings, errors };
}

describe.each(testDatabases)("billing service on $name", ({ database }) => {
  const { db } = database;
  const balanceOf = async (token: TokenRecord) => {
    const current = await findTokenByIdForUser(db, token.id, token.userId);
    return { remainQuota: current!.remainQuota, usedQuota: current!.usedQuota, status: current!.status };
  };
  const reservationRow = (id: string) =>
    db.selectFrom("quota_reservations").selectAll().where("id", "=", id).executeTakeFirst();

  it("prices usage with the group ratio, and the worst case with the default or capped output", () => {
    const { billing, warnings } = setUp(database);
    const usage = { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 };
    expect(billing.priceUsage("text-model", "default", usage)).toBe(20);
    expect(billing.priceUsage("text-model", "vip", usage)).toBe(24);
    expect(billing.priceUsage("text-model", "unknown-group", usage)).toBe(20);
    expect(billing.defaultMaxOutputTokens("text-model")).toBe(4096);
    expect(billing.defaultMaxOutputTokens("capped-model")).toBe(1000);
    expect(billing.worstCaseCost("text-model", "default", 10, 5)).toBe(20);
    expect(billing.worstCaseCost("text-model", "default", 0, undefined)).toBe(4096 * 2);
    // A request for more output than the model can produce holds only the model's maximum.
    expect(billing.worstCaseCost("capped-model", "default", 0, 50_000)).toBe(500);
    expect(warnings).toEqual([]);
  });

  it("bills a model without a price at 0 and warns once per model", () => {
    const { billing, warnings } = setUp(database);
    const usage = { promptTokens: 1000, completionTokens: 1000, cachedTokens: 0, reasoningTokens: 0 };
    expect(billing.priceUsage("unpriced", "default", usage)).toBe(0);
    expect(billing.worstCaseCost("unpriced", "default", 1000, 1000)).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]![1])).toContain("model unpriced has no price configured");
  });

  it("reserves, settles the actual cost and refunds the rest exactly once", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const requestId = randomUUID();
    const reservation = await billing.reserve(token, requestId, 300);
    expect(reservation).toEqual({ requestId, tokenId: token.id, userId: user.id, reserved: 300, unlimited: false });
    expect(await balanceOf(token)).toEqual({ remainQuota: 700, usedQuota: 0, status: 1 });
    // SQLite writes the ledger row when the commit window closes with the request still in flight: close it now.
    database.sqliteCommitWindow?.commitNow();
    expect(await reservationRow(requestId)).toMatchObject({ reserved: 300, settled: 0, created_time: 1_800_000_000 });

    expect(await billing.settle(reservation, 120)).toBe(true);
    expect(await balanceOf(token)).toEqual({ remainQuota: 880, usedQuota: 120, status: 1 });
    expect(await reservationRow(requestId)).toMatchObject({ settled: 1, actual: 120 });
    expect(await billing.settle(reservation, 120)).toBe(false);
    expect(await balanceOf(token)).toEqual({ remainQuota: 880, usedQuota: 120, status: 1 });
  });

  it("takes an overrun from the balance down to zero, never below, and exhausts the token", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 150 });
    const reservation = await billing.reserve(token, randomUUID(), 100);
    expect(await billing.settle(reservation, 300)).toBe(true);
    expect(await balanceOf(token)).toEqual({ remainQuota: 0, usedQuota: 300, status: 4 });
  });

  it("sets status 4 when a settlement leaves exactly zero", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 500 });
    const reservation = await billing.reserve(token, randomUUID(), 500);
    expect(await balanceOf(token)).toMatchObject({ remainQuota: 0, status: 1 });
    await billing.settle(reservation, 500);
    expect(await balanceOf(token)).toEqual({ remainQuota: 0, usedQuota: 500, status: 4 });
  });

  it("refuses what the balance cannot cover with a message saying what it could cost, and writes nothing", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const requestId = randomUUID();
    const refusal = await billing.reserve(token, requestId, 4200).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InsufficientQuotaError);
    expect((refusal as InsufficientQuotaError).status).toBe(402);
    expect((refusal as InsufficientQuotaError).message).toBe(
      "Insufficient quota: this request could cost up to 4200 units ($0.0084) but the token has 1000 units left. " +
        "Lower max_tokens (or max_completion_tokens / max_output_tokens) or top up the token.",
    );
    expect(await reservationRow(requestId)).toBeUndefined();
    expect(await balanceOf(token)).toEqual({ remainQuota: 1000, usedQuota: 0, status: 1 });
  });

  it("gives the hold back when the ledger row cannot be written (a repeated request id)", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const requestId = randomUUID();
    await billing.reserve(token, requestId, 100);
    await expect(billing.reserve(token, requestId, 200)).rejects.toThrow();
    expect(await balanceOf(token)).toEqual({ remainQuota: 900, usedQuota: 0, status: 1 });
  });

  // A whole answer may go upstream before its hold on PostgreSQL, once a hold there has shown balances a hundred
  // times its worst case (hold-deferral.ts); SQLite's holds cost no round trip and are always taken first.
  it("defers a withheld answer's hold on PostgreSQL only, settles it exactly once, and refuses a spent balance", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db, { quota: 10_000_000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 1_000_000 });
    const withheld = { answerWithheld: true };
    // Nothing read yet: held first, and that hold's answer shows the balances.
    const first = await billing.reserve(token, randomUUID(), 300, {}, withheld);
    expect(first.deferred).toBeUndefined();
    await billing.settle(first, 300);
    const second = await billing.reserve(token, randomUUID(), 300, {}, withheld);
    expect(second.deferred).toBe(database.dialect === "postgres" ? true : undefined);
    // A stream's answer is not withheld: always held first.
    expect((await billing.reserve(token, randomUUID(), 300)).deferred).toBeUndefined();
    const streamHolds = 300;
    const results = await Promise.all(Array.from({ length: 5 }, () => billing.settle(second, 120)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(token)).toEqual({
      remainQuota: 1_000_000 - 300 - 120 - streamHolds,
      usedQuota: 420,
      status: 1,
    });
    if (database.dialect !== "postgres") return;
    const third = await billing.reserve(token, randomUUID(), 300, {}, withheld);
    expect(third.deferred).toBe(true);
    await db.updateTable("tokens").set({ remain_quota: 200 }).where("id", "=", token.id).execute();
    const refusal = await billing.settle(third, 250).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InsufficientQuotaError);
    expect((refusal as Error).message).toContain("could cost up to 300 units");
    expect((refusal as Error).message).toContain("the token has 200 units left");
    expect(await balanceOf(token)).toEqual({ remainQuota: 200, usedQuota: 420, status: 1 });
    expect(await reservationRow(third.requestId)).toBeUndefined();
  });

  it("settles exactly once under concurrent settle calls", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const reservation = await billing.reserve(token, randomUUID(), 400);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => billing.settle(reservation, 100 + index)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = 100 + results.indexOf(true);
    expect(await balanceOf(token)).toEqual({ remainQuota: 1000 - winner, usedQuota: winner, status: 1 });
  });

  it("lets exactly 50 of 200 concurrent reserve+settle cycles through quota for 50 worst cases", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const usage = { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 };
    const worstCase = billing.worstCaseCost("text-model", "default", 10, 5);
    const actual = billing.priceUsage("text-model", "default", usage);
    expect(worstCase).toBe(actual);
    const token = await insertTestToken(db, user.id, { remainQuota: 50 * worstCase });

    const cycle = async (): Promise<boolean> => {
      try {
        const reservation = await billing.reserve(token, randomUUID(), worstCase);
        expect(await billing.settle(reservation, actual)).toBe(true);
        return true;
      } catch (error) {
        if (error instanceof InsufficientQuotaError) return false;
        throw error;
      }
    };
    const outcomes = await Promise.all(Array.from({ length: 200 }, cycle));
    expect(outcomes.filter(Boolean)).toHaveLength(50);
    expect(await balanceOf(token)).toEqual({ remainQuota: 0, usedQuota: 50 * actual, status: 4 });
    const ledger = await db
      .selectFrom("quota_reservations")
      .select(["settled", "actual"])
      .where("token_id", "=", token.id)
      .execute();
    expect(ledger).toHaveLength(50);
    expect(ledger.every((row) => row.settled === 1 && row.actual === actual)).toBe(true);
  });

  it("writes nothing to reserve for unlimited tokens and only accumulates used_quota, once", async () => {
    const { billing } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 0, unlimitedQuota: true });
    const requestId = randomUUID();
    const reservation = await billing.reserve(token, requestId, 10_000_000);
    expect(reservation).toEqual({ requestId, tokenId: token.id, userId: user.id, reserved: 0, unlimited: true });
    expect(await reservationRow(requestId)).toBeUndefined();
    const results = await Promise.all([billing.settle(reservation, 77), billing.settle(reservation, 77)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await billing.settle(reservation, 77)).toBe(false);
    expect(await balanceOf(token)).toEqual({ remainQuota: 0, usedQuota: 77, status: 1 });
  });

  it("refunds reservations abandoned by a crash, exactly once, and leaves recent ones alone", async () => {
    const { billing, clock } = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const abandoned = await billing.reserve(token, randomUUID(), 300);
    const settledEarlier = await billing.reserve(token, randomUUID(), 100);
    await billing.settle(settledEarlier, 40);
    clock.now += 3600;
    const recent = await billing.reserve(token, randomUUID(), 200);
    expect(await balanceOf(token)).toMatchObject({ remainQuota: 460 });

    // Other tests in this file share the database and leave reservations open too: all of them count.
    database.sqliteCommitWindow?.commitNow();
    const openBefore = await db
      .selectFrom("quota_reservations")
      .select("id")
      .where("settled", "=", 0)
      .where("created_time", "<", clock.now - 600)
      .execute();
    expect(openBefore.map((row) => row.id)).toContain(abandoned.requestId);
    const [first, second] = await Promise.all([
      billing.recoverAbandonedReservations(600),
      billing.recoverAbandonedReservations(600),
    ]);
    expect(first + second).toBe(openBefore.length);
    expect(await balanceOf(token)).toEqual({ remainQuota: 760, usedQuota: 40, status: 1 });
    expect(await billing.recoverAbandonedReservations(600)).toBe(0);
    // The crashed request can no longer settle; the recent one still can.
    expect(await billing.settle(abandoned, 300)).toBe(false);
    expect(await billing.settle(recent, 50)).toBe(true);
    expect(await balanceOf(token)).toEqual({ remainQuota: 910, usedQuota: 90, status: 1 });
  });

  it("writes usage rows off the request path: batched after the flush interval (PostgreSQL) or in the ledger's commit window (SQLite)", async () => {
    const { billing, errors } = setUp(database, { flushIntervalMs: 50 });
    const user = await insertTestUser(db);
    const entry = (requestId: string, overrides: Partial<UsageLogEntry> = {}): UsageLogEntry => ({
      userId: user.id,
      tokenId: 5,
      tokenName: "ci-bot",
      model: "text-model",
      channelId: 3,
      requestId,
      isStream: true,
      usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 2, reasoningTokens: 1 },
      quota: 20,
      latencyMs: 123,
      status: "success",
      group: "default",
      ...overrides,
    });
    billing.recordUsage(entry("r1"));
    billing.recordUsage(
      entry("r2", { status: "error", errorMessage: "upstream timed out", channelId: null, quota: 0 }),
    );
    billing.recordUsage(entry("r3", { status: "success", errorMessage: "ignored on success" }));
    // SQLite writes each row at once inside the commit window (visible on the connection); PostgreSQL batches.
    expect(await countUsageLogsForUser(db, { userId: user.id })).toBe(database.dialect === "sqlite" ? 3 : 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = await listUsageLogsForUser(db, { userId: user.id }, { limit: 10, offset: 0 });
    expect(rows.map((row) => row.requestId).sort()).toEqual(["r1", "r2", "r3"]);
    expect(rows.find((row) => row.requestId === "r1")).toMatchObject({
      tokenId: 5,
      tokenName: "ci-bot",
      channelId: 3,
      isStream: true,
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 2,
      reasoningTokens: 1,
      quota: 20,
      latencyMs: 123,
      status: "success",
      errorMessage: null,
      createdTime: 1_800_000_000,
    });
    expect(rows.find((row) => row.requestId === "r2")).toMatchObject({
      status: "error",
      errorMessage: "upstream timed out",
      channelId: null,
    });
    expect(rows.find((row) => row.requestId === "r3")).toMatchObject({ errorMessage: null });

    // flush() writes at once, including many rows in several statements.
    const many = Array.from({ length: 1201 }, (_, index) => entry(`bulk-${index}`));
    for (const row of many) billing.recordUsage(row);
    await billing.flush();
    expect(await countUsageLogsForUser(db, { userId: user.id })).toBe(1204);
    expect(errors).toEqual([]);
  });

  it("logs a failed batch write instead of throwing", async () => {
    const { billing, errors } = setUp(database, { flushIntervalMs: 10_000 });
    billing.recordUsage({
      userId: 1,
      tokenId: 1,
      tokenName: "t",
      model: "m",
      channelId: null,
      requestId: "bad",
      isStream: false,
      group: "default",
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 },
      quota: 0,
      latencyMs: 0,
      // Violates the table's check constraint, as a real write failure would.
      status: "unknown" as "success",
    });
    await expect(billing.flush()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toMatchObject({ requestIds: ["bad"] });
  });
});
