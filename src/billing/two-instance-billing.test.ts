import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { GatewayConfig } from "../config/gateway-config.js";
import { loadConfig } from "../config/load-config.js";
import type { Logger } from "../logging/logger.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import { openDatabase } from "../store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL } from "../store/testing/open-test-databases.js";
import { insertTestToken } from "../store/testing/insert-test-token.js";
import { insertTestUser } from "../store/testing/insert-test-user.js";
import { findTokenByIdForUser } from "../store/tokens/find-token-by-id-for-user.js";
import { findUserWallet } from "../store/users/find-user-wallet.js";
import type { Reservation } from "./billing-service.js";
import { createBillingService } from "./create-billing-service.js";

// Two gateway instances on one PostgreSQL: two pools on one schema, each with its own billing service (and so its
// own batches), as two processes would have.
const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const schema = `t_${randomBytes(6).toString("hex")}`;
await administer(`create schema ${schema}`);
const instances: GatewayDatabase[] = [];
for (let index = 0; index < 2; index += 1)
  instances.push(await openDatabase(databaseUrl, { postgresSchema: schema, postgresPoolSize: 8 }));
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  await administer(`drop schema if exists ${schema} cascade`);
});

async function administer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const config: GatewayConfig = {
  ...loadConfig({ DATABASE_URL: "sqlite::memory:", GATEWAY_SECRET: "test-secret-0123456789abcdef" }),
  pricing: { "text-model": { input: 2, output: 4 } },
};
const logger = { warn: () => undefined, error: () => undefined } as unknown as Logger;
const billingOn = (database: GatewayDatabase, now = 1_800_000_000) =>
  createBillingService({ config, database, logger, now: () => now });

describe("billing on two instances of one PostgreSQL", () => {
  const { db } = instances[0]!;
  const tokenOf = async (tokenId: number, userId: number) => {
    const token = await findTokenByIdForUser(db, tokenId, userId);
    return { remainQuota: token!.remainQuota, usedQuota: token!.usedQuota, status: token!.status };
  };
  const walletOf = async (userId: number) => {
    const wallet = await findUserWallet(db, userId);
    return { quota: wallet!.quota, usedQuota: wallet!.usedQuota };
  };

  it("lets exactly K of N concurrent requests of one hot key through, across both instances, and bills each once", async () => {
    const billings = instances.map((instance) => billingOn(instance));
    const user = await insertTestUser(db, { quota: 1_000_000 });
    const cost = 7;
    const token = await insertTestToken(db, user.id, { remainQuota: 37 * cost });
    const attempts = await Promise.allSettled(
      Array.from({ length: 300 }, (_, index) => billings[index % 2]!.reserve(token, randomUUID(), cost)),
    );
    const held = attempts.flatMap((attempt, index) =>
      attempt.status === "fulfilled" ? [{ reservation: attempt.value, billing: billings[index % 2]! }] : [],
    );
    expect(held).toHaveLength(37);
    expect(attempts.filter((attempt) => attempt.status === "rejected")).toHaveLength(263);
    expect(await tokenOf(token.id, user.id)).toEqual({ remainQuota: 0, usedQuota: 0, status: 1 });
    // Worst case = real cost: every settlement charges it all; each settles once, whichever instance tries.
    const settled = await Promise.all(
      held.flatMap(({ reservation }) => billings.map((billing) => billing.settle(reservation, cost))),
    );
    expect(settled.filter(Boolean)).toHaveLength(37);
    expect(await tokenOf(token.id, user.id)).toEqual({ remainQuota: 0, usedQuota: 37 * cost, status: 4 });
    expect(await walletOf(user.id)).toEqual({ quota: 1_000_000 - 37 * cost, usedQuota: 37 * cost });
  });

  it("lets exactly K of N through one user's wallet shared by many keys on both instances, refunds included", async () => {
    const billings = instances.map((instance) => billingOn(instance));
    const user = await insertTestUser(db, { quota: 50 * 10 });
    const tokens = await Promise.all(
      Array.from({ length: 8 }, () => insertTestToken(db, user.id, { remainQuota: 1000 })),
    );
    // Reserve and settle at once, as requests do: a refund of 4 of every 10 held goes back while others reserve.
    const cycles = await Promise.allSettled(
      Array.from({ length: 400 }, async (_, index) => {
        const billing = billings[index % 2]!;
        const reservation = await billing.reserve(tokens[index % 8]!, randomUUID(), 10);
        await billing.settle(reservation, 6);
        return reservation;
      }),
    );
    const through = cycles.filter((cycle) => cycle.status === "fulfilled").length;
    const wallet = await walletOf(user.id);
    // Whatever the interleaving: the wallet never went below zero and holds exactly what was not spent.
    expect(wallet.quota).toBeGreaterThanOrEqual(0);
    expect(wallet).toEqual({ quota: 500 - through * 6, usedQuota: through * 6 });
    expect(through).toBeGreaterThanOrEqual(50);
    const tokenSpending = await Promise.all(tokens.map((token) => tokenOf(token.id, user.id)));
    expect(tokenSpending.reduce((sum, token) => sum + token.usedQuota, 0)).toBe(through * 6);
    expect(tokenSpending.every((token) => token.remainQuota + token.usedQuota === 1000)).toBe(true);
  });

  it("gives a crashed instance's holds back through the other instance's recovery sweep, whole and once", async () => {
    const crashed = billingOn(instances[0]!, 1_000);
    const survivor = billingOn(instances[1]!, 1_000_000);
    const user = await insertTestUser(db, { quota: 10_000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 5_000 });
    const abandoned: Reservation[] = await Promise.all(
      Array.from({ length: 20 }, () => crashed.reserve(token, randomUUID(), 100)),
    );
    expect(await tokenOf(token.id, user.id)).toMatchObject({ remainQuota: 3_000 });
    // The crashed instance answered none of them; the survivor's sweep (twice at once) refunds each exactly once.
    const sweeps = await Promise.all([
      survivor.recoverAbandonedReservations(600),
      survivor.recoverAbandonedReservations(600),
    ]);
    expect(sweeps[0]! + sweeps[1]!).toBeGreaterThanOrEqual(20);
    expect(await tokenOf(token.id, user.id)).toEqual({ remainQuota: 5_000, usedQuota: 0, status: 1 });
    expect(await walletOf(user.id)).toEqual({ quota: 10_000, usedQuota: 0 });
    // A late settlement of a refunded hold (the process was not dead after all) bills nothing.
    expect(await crashed.settle(abandoned[0]!, 100)).toBe(false);
    expect(await tokenOf(token.id, user.id)).toMatchObject({ remainQuota: 5_000, usedQuota: 0 });
  });

  it("commits a settlement batch whole or not at all: a batch that fails bills none of its requests", async () => {
    const billing = createBillingService(
      { config, database: instances[0]!, logger, now: () => 1_000 },
      { ledgerBatchesInFlight: 1 },
    );
    const user = await insertTestUser(db, { quota: 10_000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 5_000 });
    const reservations = await Promise.all(Array.from({ length: 10 }, () => billing.reserve(token, randomUUID(), 100)));
    const usageOf = (reservation: Reservation, status: string) => ({
      userId: user.id,
      tokenId: token.id,
      tokenName: "test token",
      model: "text-model",
      channelId: null,
      requestId: reservation.requestId,
      isStream: false,
      quota: 40,
      latencyMs: 5,
      status: status as "success",
      group: "default",
      usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 },
    });
    // The first goes alone; the other nine queue behind it as one batch, one of whose rows the table refuses.
    const outcomes = await Promise.allSettled(
      reservations.map((reservation, index) =>
        billing.settle(reservation, 40, usageOf(reservation, index === 5 ? "bogus" : "success")),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", ...Array(9).fill("rejected")]);
    expect(await tokenOf(token.id, user.id)).toMatchObject({ remainQuota: 5_000 - 100 * 9 - 40, usedQuota: 40 });
    const rows = await db.selectFrom("usage_logs").select("request_id").where("token_id", "=", token.id).execute();
    expect(rows.map((row) => row.request_id)).toEqual([reservations[0]!.requestId]);
    // None of the nine was settled, so recovery refunds each whole.
    expect(await billingOn(instances[1]!, 1_000_000).recoverAbandonedReservations(600)).toBe(9);
    expect(await tokenOf(token.id, user.id)).toEqual({ remainQuota: 5_000 - 40, usedQuota: 40, status: 1 });
    expect(await walletOf(user.id)).toEqual({ quota: 10_000 - 40, usedQuota: 40 });
  });

  // An upstream's error text with a NUL character failed the settlement's statement on PostgreSQL (text cannot hold
  // it): the request went unbilled and without its row until the recovery sweep refunded its hold whole.
  it("settles a request whose upstream error holds a NUL character, its row written without it", async () => {
    const billing = billingOn(instances[0]!);
    const user = await insertTestUser(db, { quota: 10_000 });
    const token = await insertTestToken(db, user.id, { remainQuota: 5_000 });
    const requestId = randomUUID();
    const reservation = await billing.reserve(token, requestId, 100);
    const settled = await billing.settle(reservation, 30, {
      userId: user.id,
      tokenId: token.id,
      tokenName: token.name,
      model: "text-model",
      channelId: null,
      requestId,
      isStream: false,
      usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 },
      quota: 30,
      latencyMs: 12,
      status: "error",
      errorMessage: "upstream said \u0000 stop",
      group: "default",
    });
    expect(settled).toBe(true);
    expect(await tokenOf(token.id, user.id)).toEqual({ remainQuota: 5_000 - 30, usedQuota: 30, status: 1 });
    const rows = await db
      .selectFrom("usage_logs")
      .select(["error_message", "quota"])
      .where("request_id", "=", requestId)
      .execute();
    expect(rows).toEqual([{ error_message: "upstream said  stop", quota: 30 }]);
  });
});
