import { describe, expect, it } from "vitest";
import { insertTestToken } from "../testing/insert-test-token.js";
import { insertTestUser } from "../testing/insert-test-user.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { findTokenByIdForUser } from "../tokens/find-token-by-id-for-user.js";
import { applyTokenSettlement } from "./apply-token-settlement.js";
import { findUnsettledReservationsOlderThan } from "./find-unsettled-reservations-older-than.js";
import { insertReservation } from "./insert-reservation.js";
import { reserveTokenQuota } from "./reserve-token-quota.js";
import { settleReservation } from "./settle-reservation.js";

// The concurrency tests need real parallel connections on PostgreSQL.
const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });

describe.each(testDatabases)("quota on $name", ({ database }) => {
  const { db } = database;

  it("reserves while the balance covers the amount, and refuses otherwise", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 25 });
    expect(await reserveTokenQuota(db, token.id, 10)).toBe(15);
    expect(await reserveTokenQuota(db, token.id, 15)).toBe(0);
    expect(await reserveTokenQuota(db, token.id, 1)).toBeNull();
    expect(await reserveTokenQuota(db, token.id, 0)).toBe(0);
    expect(await reserveTokenQuota(db, token.id + 100_000, 1)).toBeNull();
    await expect(reserveTokenQuota(db, token.id, -5)).rejects.toThrow(RangeError);
    await expect(reserveTokenQuota(db, token.id, 1.5)).rejects.toThrow(RangeError);
  });

  it("lets exactly 50 of 200 concurrent reservations of 10 through a balance of 500", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 500 });
    const results = await Promise.all(Array.from({ length: 200 }, () => reserveTokenQuota(db, token.id, 10)));
    const succeeded = results.filter((result) => result !== null);
    expect(succeeded).toHaveLength(50);
    expect(new Set(succeeded).size).toBe(50);
    expect((await findTokenByIdForUser(db, token.id, user.id))?.remainQuota).toBe(0);
  });

  it("inserts a reservation and settles it exactly once", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id);
    const reservation = await insertReservation(db, {
      id: `request-once-${database.dialect}`,
      tokenId: token.id,
      userId: user.id,
      reserved: 100,
      createdTime: 1000,
    });
    expect(reservation).toEqual({
      id: `request-once-${database.dialect}`,
      tokenId: token.id,
      userId: user.id,
      reserved: 100,
      settled: false,
      actual: null,
      createdTime: 1000,
      settledTime: null,
      // A row written without them (as before wallets) held the token only.
      tokenHeld: true,
      walletHeld: false,
    });
    await expect(
      insertReservation(db, { id: reservation.id, tokenId: token.id, userId: user.id, reserved: 1, createdTime: 1 }),
    ).rejects.toThrow();

    const attempts = await Promise.all([
      settleReservation(db, { reservationId: reservation.id, actual: 60, settledTime: 1010 }),
      settleReservation(db, { reservationId: reservation.id, actual: 70, settledTime: 1011 }),
    ]);
    const winners = attempts.filter((attempt) => attempt !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ settled: true, reserved: 100 });
    expect([60, 70]).toContain(winners[0]!.actual);
    expect(await settleReservation(db, { reservationId: reservation.id, actual: 1, settledTime: 2000 })).toBeNull();
    expect(await settleReservation(db, { reservationId: "no-such-request", actual: 1, settledTime: 2000 })).toBeNull();
  });

  it("applies a settlement: refund and usage, exhausting the token at zero", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 100 });
    expect(await reserveTokenQuota(db, token.id, 100)).toBe(0);
    expect(await applyTokenSettlement(db, { tokenId: token.id, refund: 40, actual: 60 })).toEqual({
      remainQuota: 40,
      usedQuota: 60,
      status: 1,
    });
    expect(await reserveTokenQuota(db, token.id, 40)).toBe(0);
    expect(await applyTokenSettlement(db, { tokenId: token.id, refund: 0, actual: 40 })).toEqual({
      remainQuota: 0,
      usedQuota: 100,
      status: 4,
    });
    expect(await applyTokenSettlement(db, { tokenId: token.id + 100_000, refund: 0, actual: 0 })).toBeNull();
  });

  it("never takes an overrun below zero", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id, { remainQuota: 30 });
    expect(await reserveTokenQuota(db, token.id, 20)).toBe(10);
    // Actual 50 against a reservation of 20: the overrun of 30 meets a balance of only 10.
    expect(await applyTokenSettlement(db, { tokenId: token.id, refund: -30, actual: 50 })).toEqual({
      remainQuota: 0,
      usedQuota: 50,
      status: 4,
    });
  });

  it("leaves unlimited and disabled tokens at their status when the balance hits zero", async () => {
    const user = await insertTestUser(db);
    const unlimited = await insertTestToken(db, user.id, { remainQuota: 0, unlimitedQuota: true });
    const disabled = await insertTestToken(db, user.id, { remainQuota: 5, status: 2 });
    expect(await applyTokenSettlement(db, { tokenId: unlimited.id, refund: 0, actual: 10 })).toEqual({
      remainQuota: 0,
      usedQuota: 10,
      status: 1,
    });
    expect(await applyTokenSettlement(db, { tokenId: disabled.id, refund: -5, actual: 5 })).toEqual({
      remainQuota: 0,
      usedQuota: 5,
      status: 2,
    });
  });

  it("finds unsettled reservations older than a time, oldest first", async () => {
    const user = await insertTestUser(db);
    const token = await insertTestToken(db, user.id);
    const prefix = `recover-${database.dialect}`;
    for (const [suffix, createdTime] of [
      ["b", 500],
      ["a", 400],
      ["new", 900],
      ["settled", 300],
    ] as const) {
      await insertReservation(db, {
        id: `${prefix}-${suffix}`,
        tokenId: token.id,
        userId: user.id,
        reserved: 1,
        createdTime,
      });
    }
    await settleReservation(db, { reservationId: `${prefix}-settled`, actual: 1, settledTime: 301 });
    const found = await findUnsettledReservationsOlderThan(db, 600);
    expect(found.filter((row) => row.id.startsWith(prefix)).map((row) => row.id)).toEqual([
      `${prefix}-a`,
      `${prefix}-b`,
    ]);
    expect(await findUnsettledReservationsOlderThan(db, 600, 1)).toHaveLength(1);
  });
});
