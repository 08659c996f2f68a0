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
import { findUserWallet } from "../store/users/find-user-wallet.js";
import { createBillingService } from "./create-billing-service.js";

// Concurrent reservations need real parallel connections on PostgreSQL.
const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });

const config: GatewayConfig = {
  ...loadConfig({ DATABASE_URL: "sqlite::memory:", GATEWAY_SECRET: "test-secret-0123456789abcdef" }),
  pricing: { "text-model": { input: 2, output: 4 } },
};

function setUp(database: GatewayDatabase, now = 1_800_000_000) {
  const logger = { warn: () => undefined, error: () => undefined } as unknown as Logger;
  return createBillingService({ config, database, logger, now: () => now });
}

describe.each(testDatabases)("wallets on $name", ({ database }) => {
  const { db } = database;
  const tokenOf = async (token: TokenRecord) => {
    const current = await findTokenByIdForUser(db, token.id, token.userId);
    return { remainQuota: current!.remainQuota, usedQuota: current!.usedQuota };
  };
  const walletOf = async (userId: number) => {
    const wallet = await findUserWallet(db, userId);
    return { quota: wallet!.quota, usedQuota: wallet!.usedQuota };
  };

  it("holds the worst case from both the token and the wallet, and settles both exactly once", async () => {
    const billing = setUp(database);
    const user = await insertTestUser(db, { quota: 1000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 700 });
    const reservation = await billing.reserve(token, randomUUID(), 300);
    expect(reservation).toMatchObject({ reserved: 300, unlimited: false });
    expect(await tokenOf(token)).toEqual({ remainQuota: 400, usedQuota: 0 });
    expect(await walletOf(user.id)).toEqual({ quota: 700, usedQuota: 0 });
    expect(await billing.settle(reservation, 120)).toBe(true);
    expect(await billing.settle(reservation, 120)).toBe(false);
    expect(await tokenOf(token)).toEqual({ remainQuota: 580, usedQuota: 120 });
    expect(await walletOf(user.id)).toEqual({ quota: 880, usedQuota: 120 });
  });

  it("limits an unlimited token by its owner's wallet, and says the wallet is short", async () => {
    const billing = setUp(database);
    const user = await insertTestUser(db, { quota: 500 });
    const token = await insertTestToken(db, user.id, { unlimitedQuota: true });
    // Authentication's hint says the wallet is unlimited (a stale cache): the database decides all the same.
    const refusal = await billing
      .reserve(token, randomUUID(), 600, { walletUnlimited: false })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InsufficientQuotaError);
    expect((refusal as Error).message).toBe(
      "Insufficient quota: this request could cost up to 600 units ($0.0012) but your account's wallet has 500 units " +
        "left. Lower max_tokens (or max_completion_tokens / max_output_tokens), redeem a code or ask an administrator " +
        "to top up your wallet.",
    );
    const reservation = await billing.reserve(token, randomUUID(), 500);
    expect(reservation).toMatchObject({ reserved: 500, unlimited: false });
    expect(await walletOf(user.id)).toEqual({ quota: 0, usedQuota: 0 });
    await billing.settle(reservation, 200);
    expect(await walletOf(user.id)).toEqual({ quota: 300, usedQuota: 200 });
    expect(await tokenOf(token)).toEqual({ remainQuota: 0, usedQuota: 200 });
  });

  it("gives the token's hold back when the wallet is short, and leaves the wallet alone when the token is", async () => {
    const billing = setUp(database);
    const user = await insertTestUser(db, { quota: 100 });
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    await expect(billing.reserve(token, randomUUID(), 200)).rejects.toThrow("your account's wallet has 100 units");
    expect(await tokenOf(token)).toEqual({ remainQuota: 1000, usedQuota: 0 });
    const poorToken = await insertTestToken(db, user.id, { remainQuota: 50 });
    await expect(billing.reserve(poorToken, randomUUID(), 80)).rejects.toThrow("the token has 50 units left");
    expect(await walletOf(user.id)).toEqual({ quota: 100, usedQuota: 0 });
  });

  it("lets exactly K of N concurrent requests through a wallet for K, then settles to zero", async () => {
    const billing = setUp(database);
    const user = await insertTestUser(db, { quota: 50 * 10 });
    const tokens = await Promise.all(
      Array.from({ length: 4 }, () => insertTestToken(db, user.id, { unlimitedQuota: true })),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => billing.reserve(tokens[index % 4]!, randomUUID(), 10)),
    );
    const held = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    expect(held).toHaveLength(50);
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(150);
    await Promise.all(held.map((reservation) => billing.settle(reservation, 10)));
    expect(await walletOf(user.id)).toEqual({ quota: 0, usedQuota: 500 });
    const spentByTokens = await Promise.all(tokens.map(async (token) => (await tokenOf(token)).usedQuota));
    expect(spentByTokens.reduce((sum, spent) => sum + spent, 0)).toBe(500);
  });

  it("never takes an overrun below zero from the wallet", async () => {
    const billing = setUp(database);
    const user = await insertTestUser(db, { quota: 150 });
    const token = await insertTestToken(db, user.id, { unlimitedQuota: true });
    const reservation = await billing.reserve(token, randomUUID(), 100);
    await billing.settle(reservation, 400);
    expect(await walletOf(user.id)).toEqual({ quota: 0, usedQuota: 400 });
  });

  it("charges an unlimited token of an unlimited wallet nothing held, and counts the spending on both", async () => {
    const billing = setUp(database);
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { unlimitedQuota: true });
    const reservation = await billing.reserve(token, randomUUID(), 100, { walletUnlimited: true });
    expect(reservation).toMatchObject({ reserved: 0, unlimited: true });
    await billing.settle(reservation, 70);
    expect(await billing.settle(reservation, 70)).toBe(false);
    expect(await walletOf(user.id)).toEqual({ quota: 0, usedQuota: 70 });
    expect(await tokenOf(token)).toEqual({ remainQuota: 0, usedQuota: 70 });
    // Without the hint the database is asked, and finds nothing to hold either.
    expect(await billing.reserve(token, randomUUID(), 100)).toMatchObject({ reserved: 0, unlimited: true });
  });

  it("settles a hold from its stored row after a restart, both balances, once", async () => {
    const first = setUp(database);
    const user = await insertTestUser(db, { quota: 1000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const reservation = await first.reserve(token, randomUUID(), 400);
    await first.flush();
    // A second service is the next process: it knows the hold only by its ledger row (a video task's reservation).
    const second = setUp(database);
    const settlements = await Promise.all([second.settle(reservation, 250), second.settle(reservation, 250)]);
    expect(settlements.filter(Boolean)).toHaveLength(1);
    expect(await tokenOf(token)).toEqual({ remainQuota: 750, usedQuota: 250 });
    expect(await walletOf(user.id)).toEqual({ quota: 750, usedQuota: 250 });
  });

  it("refunds both balances of a hold abandoned by a crash", async () => {
    const crashed = setUp(database, 1_000);
    const user = await insertTestUser(db, { quota: 1000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 1000 });
    const walletOnly = await insertTestToken(db, user.id, { unlimitedQuota: true });
    await crashed.reserve(token, randomUUID(), 300);
    await crashed.reserve(walletOnly, randomUUID(), 200);
    await crashed.flush();
    expect(await walletOf(user.id)).toEqual({ quota: 500, usedQuota: 0 });
    const recovering = setUp(database, 1_000_000);
    expect(await recovering.recoverAbandonedReservations(600)).toBeGreaterThanOrEqual(2);
    expect(await walletOf(user.id)).toEqual({ quota: 1000, usedQuota: 0 });
    expect(await tokenOf(token)).toEqual({ remainQuota: 1000, usedQuota: 0 });
    expect(await tokenOf(walletOnly)).toEqual({ remainQuota: 0, usedQuota: 0 });
  });
});
