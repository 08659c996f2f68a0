import { randomUUID } from "node:crypto";
import { type KyselyPlugin, type RawNode, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createLedgerWorlds, randomFrom, type World } from "../testing/ledger-worlds.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { insertUsageLogs, type NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import { createPostgresQuotaLedger } from "./create-postgres-quota-ledger.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;
const db = postgres.db;
const { makeWorld, readWorld, reserveBatch, settleBatch } = createLedgerWorlds(db);

function usageRow(world: World, tokenIndex: number, requestId: string, quota: number): NewUsageLog {
  return {
    userId: world.users[tokenIndex]!,
    tokenId: world.tokens[tokenIndex]!,
    tokenName: "lone",
    model: tokenIndex === 0 ? "gpt-4o" : "gpt-4o-mini",
    channelId: 1,
    requestId,
    isStream: false,
    promptTokens: 10 + quota,
    completionTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    quota,
    latencyMs: 7,
    status: "success",
    errorMessage: null,
    createdTime: 1_700_000_000,
    group: "default",
  };
}

/** Two worlds of one seed, their ledger rows named `<prefix>-<seed>-<name>`, read alike after a step. */
async function expectSameWorlds(
  [prefix, world]: [string, World],
  [otherPrefix, otherWorld]: [string, World],
  seed: number,
  names: readonly string[],
  step: number,
) {
  expect(
    await readWorld(
      world,
      names.map((name) => `${prefix}-${seed}-${name}`),
    ),
    `after step ${step} of seed ${seed}`,
  ).toEqual(
    await readWorld(
      otherWorld,
      names.map((name) => `${otherPrefix}-${seed}-${name}`),
    ),
  );
}

describe("a lone ledger item as one plain statement", () => {
  // An instance with one request at a time sends every hold and settlement alone. Each case applies the same random
  // sequence of lone items through the ledger (its plain statements) in one world, and through the batch functions,
  // one item a call, in an identical world, and compares every answer, balance, counter, status, ledger row, usage
  // row and rollup after each item. Balances are small, so holds come up short on the token or the wallet, costs
  // overrun and clamp, tokens run out; ids repeat, settlements come twice, for ids never held, or for nothing held.
  it("answers and leaves what the batch functions leave for the same item, over 120 random sequences", async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 120; seed += 1) {
      const random = randomFrom(seed);
      const balance = () => (random(5) === 0 ? null : random(3) === 0 ? random(120) : 150 + random(600));
      const shape = { tokens: [balance(), balance()], wallets: [balance(), balance()] };
      const loneWorld = await makeWorld(shape);
      const referenceWorld = await makeWorld(shape);
      const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_001 });
      const holds: { name: string; tokenIndex: number; amount: number }[] = [];
      const steps = 6 + random(10);
      const names: string[] = [];
      for (let step = 0; step < steps; step += 1) {
        const tokenIndex = random(2);
        const limited = shape.tokens[tokenIndex] === null ? 0 : 1;
        // The owner of the other token now and then (a wallet the token does not belong to), or no user at all.
        const owner = random(25) === 0 ? "none" : random(12) === 0 ? "other" : "own";
        const pick = (world: World) =>
          owner === "none" ? 0 : world.users[owner === "other" ? 1 - tokenIndex : tokenIndex]!;
        if (holds.length === 0 || random(5) < 3) {
          const repeat = holds.length > 0 && random(12) === 0;
          const name = repeat ? holds[random(holds.length)]!.name : `hold-${step}`;
          const amount = random(140);
          holds.push({ name, tokenIndex, amount });
          const hold = (world: World, prefix: string) => ({
            id: `${prefix}-${seed}-${name}`,
            token: world.tokens[tokenIndex]!,
            user: pick(world),
            amount,
            limited: limited as 0 | 1,
          });
          const loneHold = hold(loneWorld, "lone");
          const lone = await ledger
            .reserve({
              requestId: loneHold.id,
              tokenId: loneHold.token,
              userId: loneHold.user,
              amount: loneHold.amount,
              tokenLimited: limited === 1,
            })
            .catch((error: Error) => (error.message.includes("exists already") ? "duplicate" : Promise.reject(error)));
          const [reference] = await reserveBatch([hold(referenceWorld, "reference")]);
          expect(lone, `hold ${step} of seed ${seed}`).toBe(reference);
          seen.add(`hold ${lone}`);
          names.push(name);
        } else {
          const kind = random(10);
          const held = holds[random(holds.length)]!;
          const name = kind === 0 ? null : kind === 1 ? `never-${step}` : held.name;
          const actual = random(2 * held.amount + 2);
          const settlement = (world: World, prefix: string) => ({
            id: name === null ? null : `${prefix}-${seed}-${name}`,
            token: world.tokens[held.tokenIndex]!,
            user: world.users[held.tokenIndex]!,
            actual,
          });
          const loneSettlement = settlement(loneWorld, "lone");
          const lone = await ledger.settle({
            reservationId: loneSettlement.id,
            tokenId: loneSettlement.token,
            userId: loneSettlement.user,
            actual,
            usageRow: usageRow(loneWorld, held.tokenIndex, randomUUID(), actual),
          });
          const [reference] = await settleBatch([settlement(referenceWorld, "reference")]);
          await insertUsageLogs(db, "postgres", [usageRow(referenceWorld, held.tokenIndex, randomUUID(), actual)]);
          expect(lone, `settlement ${step} of seed ${seed}`).toBe(reference);
          seen.add(`settlement ${lone} ${name === null ? "of nothing" : "of a hold"}`);
          if (name !== null) names.push(name);
        }
        await expectSameWorlds(["lone", loneWorld], ["reference", referenceWorld], seed, names, step);
      }
    }
    // Every answer each statement gives came up, so the comparison covers each of its branches.
    expect([...seen].sort()).toEqual([
      "hold duplicate",
      "hold free",
      "hold held",
      "hold token",
      "hold wallet",
      "settlement false of a hold",
      "settlement true of a hold",
      "settlement true of nothing",
    ]);
  });

  // A deferred hold (hold-deferral.ts) is taken by its settlement's statement. Each case applies the same random
  // requests as deferred holds settled alone in one world, and as a lone hold followed (when it held, or was free) by
  // its lone settlement in an identical world, between plain holds left open that move the balances; answers,
  // balances, counters, statuses, ledger rows, usage rows and rollups must be the same after every request.
  it("takes and settles a deferred hold as a lone hold and then its settlement would, over 120 random sequences", async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 120; seed += 1) {
      const random = randomFrom(seed);
      const balance = () => (random(5) === 0 ? null : random(3) === 0 ? random(120) : 150 + random(600));
      const shape = { tokens: [balance(), balance()], wallets: [balance(), balance()] };
      const deferredWorld = await makeWorld(shape);
      const referenceWorld = await makeWorld(shape);
      const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_001 });
      const names: string[] = [];
      const steps = 6 + random(10);
      for (let step = 0; step < steps; step += 1) {
        const tokenIndex = random(2);
        const limited = shape.tokens[tokenIndex] !== null;
        const owner = random(25) === 0 ? "none" : random(12) === 0 ? "other" : "own";
        const name = names.length > 0 && random(6) === 0 ? names[random(names.length)]! : `request-${step}`;
        const amount = random(140);
        const actual = random(2 * amount + 2);
        const leftOpen = random(4) === 0;
        const hold = (world: World, prefix: string) => ({
          requestId: `${prefix}-${seed}-${name}`,
          tokenId: world.tokens[tokenIndex]!,
          userId: owner === "none" ? 0 : world.users[owner === "other" ? 1 - tokenIndex : tokenIndex]!,
          amount,
          tokenLimited: limited,
        });
        const rejectDuplicate = (error: Error) =>
          error.message.includes("exists already") ? "duplicate" : Promise.reject(error);
        let answer: string;
        if (leftOpen) {
          // A plain hold of another request, never settled here: a balance the next requests see lowered.
          answer = await ledger.reserve(hold(deferredWorld, "deferred")).catch(rejectDuplicate);
          expect(await ledger.reserve(hold(referenceWorld, "reference")).catch(rejectDuplicate)).toBe(answer);
        } else {
          const usage = (world: World) => usageRow(world, tokenIndex, randomUUID(), actual);
          answer = await ledger
            .settleDeferred(hold(deferredWorld, "deferred"), { actual, usageRow: usage(deferredWorld) })
            .catch(rejectDuplicate);
          const referenceHold = hold(referenceWorld, "reference");
          const reference = await ledger.reserve(referenceHold).catch(rejectDuplicate);
          if (reference === "held" || reference === "free") {
            const reservationId = reference === "held" ? referenceHold.requestId : null;
            const { tokenId, userId } = referenceHold;
            await ledger.settle({ reservationId, tokenId, userId, actual, usageRow: usage(referenceWorld) });
          }
          expect(answer, `request ${step} of seed ${seed}`).toBe(reference);
          seen.add(answer);
        }
        names.push(name);
        await expectSameWorlds(["deferred", deferredWorld], ["reference", referenceWorld], seed, names, step);
      }
    }
    expect([...seen].sort()).toEqual(["duplicate", "free", "held", "token", "wallet"]);
  });

  // The point of the change: a lone item reaches PostgreSQL as one plain statement, not a call of the batch
  // functions (whose nested calls and planner settings cost a lone item more than its writes).
  it("sends a lone hold and a lone settlement as statements that call no ledger function", async () => {
    const world = await makeWorld({ tokens: [1_000], wallets: [1_000] });
    const sent: string[] = [];
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        sent.push((args.node as RawNode).sqlFragments.join("?"));
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const ledger = createPostgresQuotaLedger(db.withPlugin(plugin), { now: () => 1_700_000_001 });
    const requestId = randomUUID();
    expect(
      await ledger.reserve({
        requestId,
        tokenId: world.tokens[0]!,
        userId: world.users[0]!,
        amount: 300,
        tokenLimited: true,
      }),
    ).toBe("held");
    expect(
      await ledger.settle({
        reservationId: requestId,
        tokenId: world.tokens[0]!,
        userId: world.users[0]!,
        actual: 120,
        usageRow: usageRow(world, 0, requestId, 120),
      }),
    ).toBe(true);
    expect(sent).toHaveLength(2);
    for (const text of sent) expect(text).not.toMatch(/run_ledger_cycle|reservation_batch/);
    const after = await readWorld(world, [requestId]);
    expect(after.tokens).toEqual([[880, 120, 1]]);
    expect(after.users).toEqual([[880, 120]]);
    expect(after.usage).toEqual([[0, 120]]);
    const rows = await sql<{ settled: number }>`select settled from quota_reservations where id = ${requestId}`.execute(
      db,
    );
    expect(rows.rows).toEqual([{ settled: 1 }]);
  });
  // Lock order: every batch locks the token row and then the wallet row, so a lone statement must too, or it could
  // deadlock with another instance's batch on the same key. Another transaction holds the wallet's lock; the lone
  // statement then waits for it holding the token's, which a lock attempt that does not wait finds taken.
  it("takes the token's row lock before the wallet's, for a hold and for a settlement", async () => {
    const world = await makeWorld({ tokens: [1_000], wallets: [1_000] });
    const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_001 });
    const tokenId = world.tokens[0]!;
    const userId = world.users[0]!;
    const whileWalletLocked = async <Outcome>(send: () => Promise<Outcome>): Promise<Outcome> => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let walletLocked!: () => void;
      const locked = new Promise<void>((resolve) => {
        walletLocked = resolve;
      });
      const holder = db.transaction().execute(async (transaction) => {
        await sql`select 1 from users where id = ${userId} for update`.execute(transaction);
        walletLocked();
        await released;
      });
      await locked;
      const outcome = send();
      // Until the lone statement has taken the token's lock and waits for the wallet's (at most 5 s).
      let tokenTaken = false;
      for (let attempt = 0; attempt < 500 && !tokenTaken; attempt += 1) {
        tokenTaken = await sql`select 1 from tokens where id = ${tokenId} for update nowait`.execute(db).then(
          () => false,
          (error: { code?: string }) => (error.code === "55P03" ? true : Promise.reject(error)),
        );
        if (!tokenTaken) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      release();
      await holder;
      expect(tokenTaken).toBe(true);
      return outcome;
    };
    const requestId = randomUUID();
    expect(
      await whileWalletLocked(() => ledger.reserve({ requestId, tokenId, userId, amount: 300, tokenLimited: true })),
    ).toBe("held");
    expect(
      await whileWalletLocked(() => ledger.settle({ reservationId: requestId, tokenId, userId, actual: 100 })),
    ).toBe(true);
    expect((await readWorld(world, [requestId])).tokens).toEqual([[900, 100, 1]]);
  });
});
