import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../database-schema.js";
import {
  createLedgerWorlds,
  type Hold,
  itemNames,
  randomFrom,
  type Settlement,
  usedBeforeName,
  type World,
} from "../testing/ledger-worlds.js";
import { openTestDatabases } from "../testing/open-test-databases.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;
const db = postgres.db;
const { makeWorld, readWorld, reserveBatch, settleBatch, insertUsedId } = createLedgerWorlds(db);

/**
 * Whether a batch of settlements meets the set-based form's conditions, worked out here from the same facts: distinct
 * ids, and on each token and wallet the balance plus the batch's overruns stays non-negative (and above zero on a
 * limited, enabled token).
 */
async function meetsSetBasedSettlement(world: World, settlements: readonly Settlement[]): Promise<boolean> {
  const ids = settlements.flatMap((settlement) => (settlement.id === null ? [] : [settlement.id]));
  if (new Set(ids).size !== ids.length) return false;
  const open = await db
    .selectFrom("quota_reservations")
    .selectAll()
    .where("id", "in", ids)
    .where("settled", "=", 0)
    .execute();
  const overruns = new Map<string, number>();
  for (const reservation of open) {
    const actual = settlements.find((settlement) => settlement.id === reservation.id)!.actual;
    const overrun = Math.min(Number(reservation.reserved) - actual, 0);
    const add = (key: string, held: number) => overruns.set(key, (overruns.get(key) ?? 0) + (held === 1 ? overrun : 0));
    add(`token ${reservation.token_id}`, reservation.token_held);
    add(`user ${reservation.user_id}`, reservation.wallet_held);
  }
  for (const token of await db.selectFrom("tokens").selectAll().where("id", "in", world.tokens).execute()) {
    const overrun = overruns.get(`token ${token.id}`);
    if (overrun === undefined) continue;
    const lowest = Number(token.remain_quota) + overrun;
    if (lowest < 0 || (lowest === 0 && token.unlimited_quota === 0 && token.status === 1)) return false;
  }
  for (const user of await db.selectFrom("users").selectAll().where("id", "in", world.users).execute()) {
    const overrun = overruns.get(`user ${user.id}`);
    if (overrun !== undefined && Number(user.quota) + overrun < 0) return false;
  }
  return true;
}

describe("set-based ledger batches (migration 0019)", () => {
  // The batch functions apply a whole batch in a few statements only when that gives what its items one by one give;
  // each case runs one batch in one world and the same items one call each in an identical world, and compares the
  // answers and every balance, counter, status and ledger row. Balances are small, so many batches are short,
  // overrun or clamp and go item by item, and many are covered and go set-based.
  it("answers and leaves exactly what its items applied one at a time leave, over 100 random batches", async () => {
    // How many batches met the set-based form's conditions, so the comparison is known to cover both forms.
    const setBased = { holds: 0, settlements: 0 };
    for (let seed = 1; seed <= 100; seed += 1) {
      const random = randomFrom(seed);
      // Unlimited now and then; short in a third of the rest.
      const balance = () => (random(6) === 0 ? null : random(3) === 0 ? random(150) : 300 + random(900));
      const shape = { tokens: [balance(), balance()], wallets: [balance(), balance()] };
      const batchWorld = await makeWorld(shape);
      const singleWorld = await makeWorld(shape);
      const itemCount = 2 + random(12);
      const plan = Array.from({ length: itemCount }, () => ({
        tokenIndex: random(2),
        amount: random(120),
        // A repeated id within the batch, or an id a request used before, now and then.
        idKind: random(30),
      }));
      const names = itemNames(plan.map((step) => step.idKind));
      const batchIds = names.map((name) => `batch-${seed}-${name}`);
      const singleIds = names.map((name) => `single-${seed}-${name}`);
      const holdsOf = (world: World, ids: string[]): Hold[] =>
        plan.map((step, index) => ({
          id: ids[index]!,
          token: world.tokens[step.tokenIndex]!,
          user: world.users[step.tokenIndex]!,
          amount: step.amount,
          limited: shape.tokens[step.tokenIndex] === null ? 0 : 1,
        }));
      // The id used before: a settled hold of nothing in each world.
      for (const [world, ids] of [
        [batchWorld, batchIds],
        [singleWorld, singleIds],
      ] as const) {
        const reused = ids.find((id) => id.endsWith(usedBeforeName));
        if (reused !== undefined) await insertUsedId(world, reused);
      }

      const coveredOn = (index: number) => {
        const total = plan.reduce((sum, step) => sum + (step.tokenIndex === index ? step.amount : 0), 0);
        return [shape.tokens[index], shape.wallets[index]].every((funds) => funds === null || funds >= total);
      };
      if (new Set(names).size === names.length && coveredOn(0) && coveredOn(1)) setBased.holds += 1;
      const batchHeld = await reserveBatch(holdsOf(batchWorld, batchIds));
      const singleHeld: string[] = [];
      for (const hold of holdsOf(singleWorld, singleIds)) singleHeld.push(...(await reserveBatch([hold])));
      expect(batchHeld, `holds of seed ${seed}`).toEqual(singleHeld);
      expect(await readWorld(batchWorld, batchIds), `after the holds of seed ${seed}`).toEqual(
        await readWorld(singleWorld, singleIds),
      );

      // Settle what was held (each at a cost from nothing to twice its hold), plus a request that held nothing and,
      // now and then, an id never held or the same id twice.
      const settlementsOf = (world: World, ids: string[]): Settlement[] => {
        const settleRandom = randomFrom(seed * 7919);
        const settlements: Settlement[] = plan.map((step, index) => ({
          id: settleRandom(15) === 0 ? `${ids[index]}-never-held` : ids[index]!,
          token: world.tokens[step.tokenIndex]!,
          user: world.users[step.tokenIndex]!,
          actual: settleRandom(2 * step.amount + 1),
        }));
        settlements.push({ id: null, token: world.tokens[1]!, user: world.users[1]!, actual: settleRandom(50) });
        if (settleRandom(4) === 0) settlements.push({ ...settlements[0]! });
        return settlements;
      };
      if (await meetsSetBasedSettlement(batchWorld, settlementsOf(batchWorld, batchIds))) setBased.settlements += 1;
      const batchSettled = await settleBatch(settlementsOf(batchWorld, batchIds));
      const singleSettled: boolean[] = [];
      for (const settlement of settlementsOf(singleWorld, singleIds))
        singleSettled.push(...(await settleBatch([settlement])));
      expect(batchSettled, `settlements of seed ${seed}`).toEqual(singleSettled);
      expect(await readWorld(batchWorld, batchIds), `after the settlements of seed ${seed}`).toEqual(
        await readWorld(singleWorld, singleIds),
      );
    }
    expect(setBased.holds).toBeGreaterThanOrEqual(15);
    expect(setBased.holds).toBeLessThanOrEqual(85);
    expect(setBased.settlements).toBeGreaterThanOrEqual(15);
    expect(setBased.settlements).toBeLessThanOrEqual(85);
  });

  // What the change is for: on a covered batch the key's token row and its owner's wallet row are written once for the
  // whole batch, not once per item (each write a new row version inside one transaction).
  it("writes a hot key's token row and wallet row once per covered batch of holds, and once per batch of settlements", async () => {
    const world = await makeWorld({ tokens: [100_000], wallets: [100_000] });
    const ids = Array.from({ length: 16 }, () => randomUUID());
    // Row writes this connection has not reported yet, by table (PostgreSQL 15 counts a connection's pending
    // statistics across its transactions until it reports them, never inside one): read as differences.
    const rowWrites = (open: Kysely<Database>, table: "tokens" | "users") =>
      sql<{ updates: string }>`select n_tup_upd as updates from pg_stat_xact_user_tables
        where relname = ${table} and schemaname = current_schema()`.execute(open);
    await db.transaction().execute(async (open) => {
      const written = async () => ({
        tokens: Number((await rowWrites(open, "tokens")).rows[0]?.updates ?? 0),
        users: Number((await rowWrites(open, "users")).rows[0]?.updates ?? 0),
      });
      const before = await written();
      await sql`select reserve_reservation_batch(${ids}::text[], ${ids.map(() => world.tokens[0]!)}::bigint[],
          ${ids.map(() => world.users[0]!)}::bigint[], ${ids.map(() => 100)}::bigint[], ${ids.map(() => 1)}::integer[],
          1700000000)`.execute(open);
      const held = await written();
      expect([held.tokens - before.tokens, held.users - before.users]).toEqual([1, 1]);
      await sql`select settle_reservation_batch(${ids}::text[], ${ids.map(() => world.tokens[0]!)}::bigint[],
          ${ids.map(() => world.users[0]!)}::bigint[], ${ids.map(() => 60)}::bigint[], 1700000001)`.execute(open);
      const settled = await written();
      expect([settled.tokens - held.tokens, settled.users - held.users]).toEqual([1, 1]);
    });
    const after = await readWorld(world, ids);
    expect(after.tokens).toEqual([[100_000 - 16 * 60, 16 * 60, 1]]);
    expect(after.users).toEqual([[100_000 - 16 * 60, 16 * 60]]);
    expect(after.reservations.every((row) => row?.[1] === 1 && row[2] === 60)).toBe(true);
  });
});
