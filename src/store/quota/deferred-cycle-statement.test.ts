import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createLedgerWorlds, itemNames, randomFrom, usedBeforeName, type World } from "../testing/ledger-worlds.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { testUsageRow as rowOf } from "../testing/test-usage-row.js";
import { deferredHoldNotTakenCode } from "../migrations/create-deferred-holds-in-batches-migration.js";
import {
  createDeferredCycleStatement,
  type DeferredHold,
  reservationIdConstraint,
} from "./deferred-cycle-statement.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;
const db = postgres.db;
const { makeWorld, readWorld, insertUsedId } = createLedgerWorlds(db);

interface FunctionAnswer {
  held: string[];
  token_balances: (string | null)[];
  wallet_balances: (string | null)[];
  wallets_unlimited: (number | null)[];
}

/** The same deferred holds through one call of `run_ledger_cycle`: its answer, or the SQLSTATE it failed with. */
async function runFunction(holds: readonly DeferredHold[]): Promise<FunctionAnswer | { failed: string }> {
  const column = <Value>(read: (hold: DeferredHold) => Value) => holds.map(read);
  try {
    const statement = sql<FunctionAnswer>`select held, token_balances, wallet_balances, wallets_unlimited
      from run_ledger_cycle('{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::bigint[],
        ${column((hold) => hold.input.requestId)}::text[], ${column((hold) => hold.input.tokenId)}::bigint[],
        ${column((hold) => hold.input.userId)}::bigint[], ${column((hold) => hold.input.amount)}::bigint[],
        ${column((hold) => (hold.input.tokenLimited ? 1 : 0))}::integer[],
        ${column((hold) => hold.settlement.actual)}::bigint[], 1700000000)`;
    return (await statement.execute(db)).rows[0]!;
  } catch (error) {
    return { failed: String((error as { code?: unknown }).code) };
  }
}

/** The usage rows and rollups apart: the function does not write them, the statement writes them when it applies. */
const balancesAndRows = ({ usage, rollups, ...rest }: Awaited<ReturnType<typeof readWorld>>) => rest;

describe("a batch of deferred holds as one plain statement (PostgreSQL)", () => {
  // The same batch in two identical worlds: the plain statement in one, `run_ledger_cycle` in the other. Where the
  // statement applies, both leave the same balances, counters, statuses and ledger rows and answer the same; where it
  // does not, it leaves its world as it was, and the function went through the two batch functions or refused; a
  // repeated id fails the statement and nothing changes, as the function's LD001. Balances are small, so many
  // batches overrun, clamp or fall short.
  it("leaves what run_ledger_cycle leaves wherever it applies, and nothing elsewhere, over 150 random batches", async () => {
    const statement = createDeferredCycleStatement(db);
    const forms = { applied: 0, notApplied: 0, repeatedId: 0 };
    for (let seed = 1; seed <= 150; seed += 1) {
      const random = randomFrom(seed);
      const balance = () => (random(6) === 0 ? null : random(8) === 0 ? random(200) : 250 + random(1000));
      const shape = { tokens: [balance(), balance()], wallets: [balance(), balance()] };
      const statementWorld = await makeWorld(shape);
      const functionWorld = await makeWorld(shape);
      const plan = Array.from({ length: 2 + random(12) }, () => {
        const amount = random(120);
        // A cost from nothing to three times the hold; a repeated or used id now and then.
        return { tokenIndex: random(2), amount, cost: random(3 * amount + 1), idKind: random(60) };
      });
      const names = itemNames(plan.map((step) => step.idKind));
      const holdsOf = (world: World, prefix: string): DeferredHold[] =>
        plan.map((step, index) => {
          const requestId = `${prefix}-${seed}-${names[index]}`;
          const [tokenId, userId] = [world.tokens[step.tokenIndex]!, world.users[step.tokenIndex]!];
          return {
            input: {
              requestId,
              tokenId,
              userId,
              amount: step.amount,
              tokenLimited: shape.tokens[step.tokenIndex] !== null,
            },
            settlement: { actual: step.cost, usageRow: rowOf(userId, tokenId, requestId, step.cost) },
          };
        });
      const statementHolds = holdsOf(statementWorld, "statement");
      const functionHolds = holdsOf(functionWorld, "function");
      for (const [world, holds] of [
        [statementWorld, statementHolds],
        [functionWorld, functionHolds],
      ] as const) {
        const reused = holds.find((hold) => hold.input.requestId.endsWith(usedBeforeName));
        if (reused !== undefined) await insertUsedId(world, reused.input.requestId);
      }
      const statementIds = statementHolds.map((hold) => hold.input.requestId);
      const functionIds = functionHolds.map((hold) => hold.input.requestId);
      const before = await readWorld(statementWorld, statementIds);

      const answer = await statement.run(statementHolds, 1_700_000_000).catch((error: unknown) => {
        const { code, constraint } = error as { code?: unknown; constraint?: unknown };
        return { code, constraint };
      });
      const expected = await runFunction(functionHolds);
      const after = await readWorld(statementWorld, statementIds);
      const label = `batch of seed ${seed}`;
      if (typeof answer === "object" && "code" in answer) {
        forms.repeatedId += 1;
        expect(answer, label).toEqual({ code: "23505", constraint: reservationIdConstraint });
        expect(expected, label).toEqual({ failed: deferredHoldNotTakenCode });
        expect(after, label).toEqual(before);
        continue;
      }
      if (typeof answer === "string") {
        forms.notApplied += 1;
        // Nothing else holds these rows, so a batch that does not fit is one whose conditions fail.
        expect(answer, label).toBe("not met");
        expect(after, label).toEqual(before);
        continue;
      }
      forms.applied += 1;
      expect("held" in expected, label).toBe(true);
      const { held, token_balances, wallet_balances, wallets_unlimited } = expected as FunctionAnswer;
      expect(answer.held, label).toEqual(held);
      expect(
        answer.balances.map((seen) => [seen.token_balance, seen.wallet_balance, seen.wallet_unlimited]),
        label,
      ).toEqual(held.map((_, index) => [token_balances[index], wallet_balances[index], wallets_unlimited[index]]));
      expect(balancesAndRows(after), label).toEqual(balancesAndRows(await readWorld(functionWorld, functionIds)));
      // Every hold's usage row, with its cost, and the rollups their sums, written by the same statement.
      expect(after.usage, label).toEqual(plan.map((step) => [step.tokenIndex, step.cost]));
      const rolledUp = [0, 1].flatMap((tokenIndex) => {
        const costs = plan.filter((step) => step.tokenIndex === tokenIndex).map((step) => step.cost);
        return costs.length === 0
          ? []
          : [[tokenIndex, costs.length, costs.length, costs.reduce((sum, cost) => sum + cost, 0)]];
      });
      expect(
        after.rollups.map(([tokenIndex, , , requests, promptTokens, quota]) => [
          tokenIndex,
          requests,
          promptTokens,
          quota,
        ]),
        label,
      ).toEqual(rolledUp);
    }
    // Every form was compared.
    expect(forms.applied).toBeGreaterThanOrEqual(20);
    expect(forms.notApplied).toBeGreaterThanOrEqual(10);
    expect(forms.repeatedId).toBeGreaterThanOrEqual(3);
  });

  // The constraint named in the code is the one PostgreSQL reports for the ledger rows' primary key.
  it("names the primary key of the ledger rows as PostgreSQL does", async () => {
    const world = await makeWorld({ tokens: [1_000], wallets: [1_000] });
    const id = randomUUID();
    await insertUsedId(world, id);
    const failure = await insertUsedId(world, id).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "23505", constraint: reservationIdConstraint });
  });

  // Another transaction holding the key's row (another instance's batch): the statement does not wait for it,
  // writes nothing, and says so; once the row is free, the same batch goes through.
  it("skips a row another transaction holds, writes nothing and answers contended", async () => {
    const statement = createDeferredCycleStatement(db);
    const world = await makeWorld({ tokens: [100_000], wallets: [100_000] });
    const holds: DeferredHold[] = [1, 2].map(() => {
      const requestId = randomUUID();
      const [tokenId, userId] = [world.tokens[0]!, world.users[0]!];
      return {
        input: { requestId, tokenId, userId, amount: 100, tokenLimited: true },
        settlement: { actual: 60, usageRow: rowOf(userId, tokenId, requestId, 60) },
      };
    });
    const ids = holds.map((hold) => hold.input.requestId);
    const before = await readWorld(world, ids);
    for (const table of ["tokens", "users"] as const) {
      const locked = table === "tokens" ? world.tokens[0]! : world.users[0]!;
      await db.transaction().execute(async (open) => {
        await sql`select 1 from ${sql.table(table)} where id = ${locked} for update`.execute(open);
        expect(await statement.run(holds, 1_700_000_000), table).toBe("contended");
      });
      expect(await readWorld(world, ids), table).toEqual(before);
    }
    const answer = await statement.run(holds, 1_700_000_000);
    expect(answer).toMatchObject({ held: ["held", "held"] });
    const after = await readWorld(world, ids);
    expect(after.tokens).toEqual([[100_000 - 120, 120, 1]]);
    expect(after.users).toEqual([[100_000 - 120, 120]]);
    expect(after.usage).toEqual([
      [0, 60],
      [0, 60],
    ]);
  });
});
