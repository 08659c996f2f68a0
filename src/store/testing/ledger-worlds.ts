import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { insertTestToken } from "./insert-test-token.js";
import { insertTestUser } from "./insert-test-user.js";

// Identical small worlds of tokens and wallets on PostgreSQL, for tests that apply the same ledger items two ways
// (a batch and its items one by one; a lone statement and the batch function) and compare what each leaves.

export interface Hold {
  id: string;
  token: number;
  user: number;
  amount: number;
  limited: 0 | 1;
}

export interface Settlement {
  id: string | null;
  token: number;
  user: number;
  actual: number;
}

export interface World {
  users: number[];
  tokens: number[];
}

export function createLedgerWorlds(db: Kysely<Database>) {
  /** Applies holds through `reserve_reservation_batch`, as one batch. */
  function reserveBatch(holds: readonly Hold[]): Promise<string[]> {
    return sql<{ outcomes: string[] }>`select reserve_reservation_batch(
        ${holds.map((hold) => hold.id)}::text[], ${holds.map((hold) => hold.token)}::bigint[],
        ${holds.map((hold) => hold.user)}::bigint[], ${holds.map((hold) => hold.amount)}::bigint[],
        ${holds.map((hold) => hold.limited)}::integer[], 1700000000) as outcomes`
      .execute(db)
      .then((result) => result.rows[0]!.outcomes);
  }

  /** Applies settlements through `settle_reservation_batch`, as one batch. */
  function settleBatch(settlements: readonly Settlement[]): Promise<boolean[]> {
    return sql<{ outcomes: boolean[] }>`select settle_reservation_batch(
        ${settlements.map((settlement) => settlement.id)}::text[],
        ${settlements.map((settlement) => settlement.token)}::bigint[],
        ${settlements.map((settlement) => settlement.user)}::bigint[],
        ${settlements.map((settlement) => settlement.actual)}::bigint[], 1700000001) as outcomes`
      .execute(db)
      .then((result) => result.rows[0]!.outcomes);
  }

  /** Tokens of as many owners, token i owned by owner i; each balance set, or null: unlimited. */
  async function makeWorld(shape: { tokens: (number | null)[]; wallets: (number | null)[] }): Promise<World> {
    // One at a time, so ids ascend in the order given and two worlds read back in the same order.
    const users: number[] = [];
    for (const quota of shape.wallets) users.push((await insertTestUser(db, quota === null ? {} : { quota })).id);
    const tokens: number[] = [];
    for (const [index, remain] of shape.tokens.entries()) {
      const overrides = remain === null ? { unlimitedQuota: true } : { remainQuota: remain };
      tokens.push((await insertTestToken(db, users[index]!, overrides)).id);
    }
    return { users, tokens };
  }

  /**
   * Every balance, counter and status of a world, its ledger rows in the order of the ids given (null: no row), and
   * its usage rows as (token's place in the world, cost) in the order written and their rollups, so two worlds compare item by item.
   */
  async function readWorld(world: World, reservationIds: readonly string[]) {
    const tokens = await db
      .selectFrom("tokens")
      .select(["remain_quota", "used_quota", "status"])
      .where("id", "in", world.tokens)
      .orderBy("id")
      .execute();
    const users = await db
      .selectFrom("users")
      .select(["quota", "used_quota"])
      .where("id", "in", world.users)
      .orderBy("id")
      .execute();
    const reservations =
      reservationIds.length === 0
        ? []
        : await db
            .selectFrom("quota_reservations")
            .select(["id", "reserved", "settled", "actual", "token_held", "wallet_held"])
            .where("id", "in", [...new Set(reservationIds)])
            .execute();
    const usage = await db
      .selectFrom("usage_logs")
      .select(["token_id", "quota"])
      .where("token_id", "in", world.tokens)
      .orderBy("id")
      .execute();
    const rollups = await db
      .selectFrom("usage_rollups")
      .select(["token_id", "hour", "model", "requests", "prompt_tokens", "quota"])
      .where("token_id", "in", world.tokens)
      .orderBy("token_id")
      .orderBy("hour")
      .orderBy("model")
      .execute();
    const byId = new Map(reservations.map((row) => [row.id, row]));
    return {
      tokens: tokens.map((row) => [Number(row.remain_quota), Number(row.used_quota), row.status]),
      users: users.map((row) => [Number(row.quota), Number(row.used_quota)]),
      reservations: reservationIds.map((id) => {
        const row = byId.get(id);
        return row === undefined
          ? null
          : [
              Number(row.reserved),
              row.settled,
              row.actual === null ? null : Number(row.actual),
              row.token_held,
              row.wallet_held,
            ];
      }),
      usage: usage.map((row) => [world.tokens.indexOf(Number(row.token_id)), Number(row.quota)]),
      rollups: rollups.map((row) => [
        world.tokens.indexOf(Number(row.token_id)),
        Number(row.hour),
        row.model,
        Number(row.requests),
        Number(row.prompt_tokens),
        Number(row.quota),
      ]),
    };
  }

  /** A settled ledger row of nothing under `id` in `world`: an id some request used before. */
  async function insertUsedId(world: World, id: string): Promise<void> {
    await db
      .insertInto("quota_reservations")
      .values({
        id,
        token_id: world.tokens[0]!,
        user_id: world.users[0]!,
        reserved: 0,
        settled: 1,
        actual: 0,
        created_time: 1,
        settled_time: 1,
        token_held: 0,
        wallet_held: 0,
      })
      .execute();
  }

  return { reserveBatch, settleBatch, makeWorld, readWorld, insertUsedId };
}

/** The id used before in a batch of `itemNames` (insertUsedId), by its name's end. */
export const usedBeforeName = "used-before";

/**
 * Names for a batch's items from a random kind each: 1, the id used before; 0 (past the first), the item before's id
 * again; anything else, a name of its own.
 */
export function itemNames(idKinds: readonly number[]): string[] {
  const names: string[] = [];
  for (const [index, kind] of idKinds.entries())
    names.push(kind === 1 ? usedBeforeName : kind === 0 && index > 0 ? names[index - 1]! : `item-${index}`);
  return names;
}

/** A small deterministic generator, so a failing case can be replayed from its seed. */
export function randomFrom(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}
