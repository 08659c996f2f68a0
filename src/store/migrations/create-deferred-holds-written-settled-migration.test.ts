import { randomUUID } from "node:crypto";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  createLedgerWorlds,
  type Hold,
  itemNames,
  randomFrom,
  usedBeforeName,
  type World,
} from "../testing/ledger-worlds.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { deferredHoldNotTakenCode } from "./create-deferred-holds-in-batches-migration.js";
import { createMigrationProvider } from "./create-migration-provider.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;
const db = postgres.db;
const { makeWorld, readWorld, reserveBatch, settleBatch, insertUsedId } = createLedgerWorlds(db);

/** A hold of a cycle; a deferred one carries the cost it is settled at in the same cycle. */
type CycleHold = Hold & { cost: number | null };

interface CycleAnswer {
  held: string[];
  token_balances: (string | null)[];
  wallet_balances: (string | null)[];
}

/** One call of `run_ledger_cycle` with holds only: its answer, or the SQLSTATE it failed with. */
async function runCycle(holds: readonly CycleHold[]): Promise<CycleAnswer | { failed: string }> {
  try {
    const column = <Value>(read: (hold: CycleHold) => Value) => holds.map(read);
    const statement = sql<CycleAnswer>`select held, token_balances, wallet_balances from run_ledger_cycle(
        '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[],
        ${column((hold) => hold.id)}::text[], ${column((hold) => hold.token)}::bigint[],
        ${column((hold) => hold.user)}::bigint[], ${column((hold) => hold.amount)}::bigint[],
        ${column((hold) => hold.limited)}::integer[], ${column((hold) => hold.cost)}::bigint[], 1700000000)`;
    return (await statement.execute(db)).rows[0]!;
  } catch (error) {
    return { failed: String((error as { code?: unknown }).code) };
  }
}

/**
 * Whether a batch's deferred holds meet the written-settled form's conditions, worked out here from the same facts:
 * distinct ids never used, and on each token and wallet the balance less the holds plus the overruns stays
 * non-negative (above zero on a limited, enabled token; an unlimited wallet only not below zero).
 */
async function meetsWrittenSettled(world: World, deferred: readonly CycleHold[]): Promise<boolean> {
  const ids = deferred.map((hold) => hold.id);
  if (new Set(ids).size !== ids.length) return false;
  if ((await db.selectFrom("quota_reservations").select("id").where("id", "in", ids).execute()).length > 0)
    return false;
  const sums = new Map<string, { held: number; overrun: number }>();
  const add = (key: string, held: number, overrun: number) => {
    const sum = sums.get(key) ?? { held: 0, overrun: 0 };
    sums.set(key, { held: sum.held + held, overrun: sum.overrun + overrun });
  };
  for (const hold of deferred) {
    const overrun = Math.min(hold.amount - hold.cost!, 0);
    add(`token ${hold.token}`, hold.limited === 1 ? hold.amount : 0, hold.limited === 1 ? overrun : 0);
    add(`user ${hold.user}`, hold.amount, overrun);
  }
  for (const token of await db.selectFrom("tokens").selectAll().where("id", "in", world.tokens).execute()) {
    const sum = sums.get(`token ${token.id}`);
    if (sum === undefined) continue;
    const lowest = Number(token.remain_quota) - sum.held + sum.overrun;
    if (lowest < 0 || (lowest === 0 && token.unlimited_quota === 0 && token.status === 1)) return false;
  }
  for (const user of await db.selectFrom("users").selectAll().where("id", "in", world.users).execute()) {
    const sum = sums.get(`user ${user.id}`);
    if (sum === undefined) continue;
    const fits =
      user.quota_unlimited === 0
        ? Number(user.quota) - sum.held + sum.overrun >= 0
        : user.quota_unlimited === 1 && Number(user.quota) >= 0;
    if (!fits) return false;
  }
  return true;
}

describe("deferred holds written settled (migration 0022, PostgreSQL)", () => {
  // A cycle's plain holds and then its deferred holds, each taken and then settled at its cost, one call each in an
  // identical world, against one call of the cycle: the same answers and the same balances, counters, statuses and
  // ledger rows, or, when a deferred hold would not be taken, LD001 and nothing changed. Balances are small, so many
  // batches overrun, clamp or fall short and go through the two batch functions, and many go written settled.
  it("leaves what holding and then settling its items one at a time leaves, over 100 random cycles", async () => {
    const forms = { writtenSettled: 0, throughBatchFunctions: 0, refused: 0 };
    for (let seed = 1; seed <= 100; seed += 1) {
      const random = randomFrom(seed);
      const balance = () => (random(6) === 0 ? null : random(8) === 0 ? random(200) : 250 + random(1000));
      const shape = { tokens: [balance(), balance()], wallets: [balance(), balance()] };
      const cycleWorld = await makeWorld(shape);
      const singleWorld = await makeWorld(shape);
      const plan = Array.from({ length: 2 + random(12) }, () => {
        const amount = random(120);
        return {
          tokenIndex: random(2),
          amount,
          // A plain hold now and then; a deferred one costs from nothing to three times its hold.
          cost: random(5) === 0 ? null : random(3 * amount + 1),
          // A repeated id within the batch, or an id a request used before, now and then.
          idKind: random(100),
        };
      });
      const names = itemNames(plan.map((step) => step.idKind));
      const holdsOf = (world: World, prefix: string): CycleHold[] =>
        plan.map((step, index) => ({
          id: `${prefix}-${seed}-${names[index]}`,
          token: world.tokens[step.tokenIndex]!,
          user: world.users[step.tokenIndex]!,
          amount: step.amount,
          limited: shape.tokens[step.tokenIndex] === null ? 0 : 1,
          cost: step.cost,
        }));
      const cycleHolds = holdsOf(cycleWorld, "cycle");
      const singleHolds = holdsOf(singleWorld, "single");
      for (const [world, holds] of [
        [cycleWorld, cycleHolds],
        [singleWorld, singleHolds],
      ] as const) {
        const reused = holds.find((hold) => hold.id.endsWith(usedBeforeName));
        if (reused !== undefined) await insertUsedId(world, reused.id);
      }
      const cycleIds = cycleHolds.map((hold) => hold.id);
      const singleIds = singleHolds.map((hold) => hold.id);
      const before = await readWorld(cycleWorld, cycleIds);

      // One at a time: the plain holds, then the deferred holds, then their settlements. Where the deferred holds
      // start from tells whether the cycle's were within the written-settled form.
      const isDeferred = (hold: CycleHold): hold is CycleHold & { cost: number } => hold.cost !== null;
      const singleOutcomes: string[] = new Array(plan.length);
      for (const [index, hold] of singleHolds.entries())
        if (!isDeferred(hold)) singleOutcomes[index] = (await reserveBatch([hold]))[0]!;
      const writtenSettled = await meetsWrittenSettled(singleWorld, singleHolds.filter(isDeferred));
      for (const [index, hold] of singleHolds.entries())
        if (isDeferred(hold)) singleOutcomes[index] = (await reserveBatch([hold]))[0]!;
      const deferredTaken = singleHolds.every(
        (hold, index) => !isDeferred(hold) || ["held", "free"].includes(singleOutcomes[index]!),
      );

      const answer = await runCycle(cycleHolds);
      if (!deferredTaken) {
        forms.refused += 1;
        expect(answer, `cycle of seed ${seed}`).toEqual({ failed: deferredHoldNotTakenCode });
        expect(await readWorld(cycleWorld, cycleIds), `after the refused cycle of seed ${seed}`).toEqual(before);
        continue;
      }
      for (const [index, hold] of singleHolds.entries())
        if (isDeferred(hold))
          await settleBatch([
            {
              id: singleOutcomes[index] === "held" ? hold.id : null,
              token: hold.token,
              user: hold.user,
              actual: hold.cost,
            },
          ]);
      expect("held" in answer ? answer.held : answer, `cycle of seed ${seed}`).toEqual(singleOutcomes);
      const single = await readWorld(singleWorld, singleIds);
      expect(await readWorld(cycleWorld, cycleIds), `after the cycle of seed ${seed}`).toEqual(single);
      // The balances the cycle answers are those it left.
      const { token_balances: tokenBalances, wallet_balances: walletBalances } = answer as CycleAnswer;
      plan.forEach((step, index) => {
        expect(tokenBalances[index] === null ? null : Number(tokenBalances[index])).toBe(
          shape.tokens[step.tokenIndex] === null ? null : single.tokens[step.tokenIndex]![0],
        );
        expect(Number(walletBalances[index])).toBe(single.users[step.tokenIndex]![0]);
      });

      if (singleHolds.some(isDeferred)) forms[writtenSettled ? "writtenSettled" : "throughBatchFunctions"] += 1;
    }
    // Both forms and refusals were compared.
    expect(forms.writtenSettled).toBeGreaterThanOrEqual(15);
    expect(forms.writtenSettled).toBeLessThanOrEqual(85);
    expect(forms.throughBatchFunctions).toBeGreaterThanOrEqual(5);
    expect(forms.refused).toBeGreaterThanOrEqual(5);
  });

  // What the change is for: a covered cycle of deferred holds inserts each ledger row once, already settled, and
  // writes the key's token row and its owner's wallet row once, where migration 0021 updated every row it had just
  // inserted and wrote each balance twice.
  it("writes each deferred hold's ledger row once, settled, and the hot key's balances once per cycle", async () => {
    const world = await makeWorld({ tokens: [100_000], wallets: [100_000] });
    const ids = Array.from({ length: 16 }, () => randomUUID());
    // Row writes of this transaction, by table (PostgreSQL counts a connection's pending statistics across its
    // transactions until it reports them): read as differences.
    await db.transaction().execute(async (open) => {
      const written = async () => {
        const rows = await sql<{ table: string; inserts: string; updates: string }>`select relname as table,
            n_tup_ins as inserts, n_tup_upd as updates from pg_stat_xact_user_tables
            where schemaname = current_schema() and relname in ('tokens', 'users', 'quota_reservations')`.execute(open);
        return Object.fromEntries(rows.rows.map((row) => [row.table, [Number(row.inserts), Number(row.updates)]]));
      };
      const before = await written();
      const answer = await sql<{ held: string[] }>`select held from run_ledger_cycle(
          '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[],
          ${ids}::text[], ${ids.map(() => world.tokens[0]!)}::bigint[], ${ids.map(() => world.users[0]!)}::bigint[],
          ${ids.map(() => 100)}::bigint[], ${ids.map(() => 1)}::integer[], ${ids.map(() => 60)}::bigint[],
          1700000000)`.execute(open);
      expect(answer.rows[0]!.held).toEqual(ids.map(() => "held"));
      const after = await written();
      const change = (table: string) => [
        after[table]![0]! - (before[table]?.[0] ?? 0),
        after[table]![1]! - (before[table]?.[1] ?? 0),
      ];
      expect(change("quota_reservations")).toEqual([16, 0]);
      expect(change("tokens")).toEqual([0, 1]);
      expect(change("users")).toEqual([0, 1]);
    });
    const after = await readWorld(world, ids);
    expect(after.tokens).toEqual([[100_000 - 16 * 60, 16 * 60, 1]]);
    expect(after.users).toEqual([[100_000 - 16 * 60, 16 * 60]]);
    expect(after.reservations).toEqual(ids.map(() => [100, 1, 60, 1, 1]));
  });

  it("adds hold_and_settle_reservation_batch, and goes down to the cycle of migration 0021", async () => {
    const present = async () => {
      const found = await sql<{ name: string; source: string }>`select proname as name, prosrc as source from pg_proc
        where (proname, pronargs) in (('hold_and_settle_reservation_batch', 7), ('run_ledger_cycle', 11))
          and pronamespace = current_schema()::regnamespace order by proname`.execute(db);
      return found.rows.map(
        (row) => `${row.name}${row.source.includes("hold_and_settle_reservation_batch(") ? " calling it" : ""}`,
      );
    };
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
    const migrator = new Migrator({ db, provider: createMigrationProvider("postgres"), migrationTableSchema: schema });
    expect(await present()).toEqual(["hold_and_settle_reservation_batch", "run_ledger_cycle calling it"]);
    expect((await migrator.migrateTo("0021_deferred_holds_in_batches")).error).toBeUndefined();
    expect(await present()).toEqual(["run_ledger_cycle"]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await present()).toEqual(["hold_and_settle_reservation_batch", "run_ledger_cycle calling it"]);
  });
});
