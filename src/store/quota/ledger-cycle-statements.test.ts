import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLedgerWorlds } from "../testing/ledger-worlds.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { testUsageRow } from "../testing/test-usage-row.js";
import { createDeferredCycleStatement, type DeferredCycleStatement } from "./deferred-cycle-statement.js";
import { createLedgerCycleStatements, type LedgerCycleHold } from "./ledger-cycle-statements.js";

const db = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database.db;
const { makeWorld, readWorld } = createLedgerWorlds(db);

describe("ledger cycles of deferred holds alone (PostgreSQL)", () => {
  // Which statement a batch takes: the plain one first; after it found its rows held by another transaction, the
  // function for a while (each try would cost a round trip while another instance is busy on the key), then the
  // plain one again. Any other batch never tries it. Every batch is applied once whichever way it went.
  it("goes through the function for a while after contended rows, and applies every batch once", async () => {
    const world = await makeWorld({ tokens: [100_000], wallets: [100_000] });
    const real = createDeferredCycleStatement(db);
    const tries: string[] = [];
    let contendNext = false;
    const watched: DeferredCycleStatement = {
      async run(holds, now) {
        if (contendNext) {
          contendNext = false;
          tries.push("contended");
          return "contended";
        }
        const answer = await real.run(holds, now);
        tries.push(typeof answer === "object" ? "applied" : answer);
        return answer;
      },
    };
    const clock = { now: 0 };
    const statements = createLedgerCycleStatements(db, { deferredCycle: watched, now: () => clock.now });
    const ids: string[] = [];
    const deferred = (count: number): LedgerCycleHold[] =>
      Array.from({ length: count }, () => {
        const requestId = randomUUID();
        ids.push(requestId);
        const [tokenId, userId] = [world.tokens[0]!, world.users[0]!];
        return {
          input: { requestId, tokenId, userId, amount: 100, tokenLimited: true },
          settlement: { actual: 10, usageRow: testUsageRow(userId, tokenId, requestId, 10) },
        };
      });
    const cycle = (holds: LedgerCycleHold[]) => statements.run([], holds, 1_700_000_000);

    expect((await cycle(deferred(2))).held).toEqual(["held", "held"]);
    contendNext = true;
    expect((await cycle(deferred(2))).held).toEqual(["held", "held"]);
    // The pause is one second.
    clock.now += 999;
    expect((await cycle(deferred(3))).held).toEqual(["held", "held", "held"]);
    clock.now += 1;
    expect((await cycle(deferred(2))).held).toEqual(["held", "held"]);
    // A plain hold in the batch: the function, without a try.
    const withPlainHold = [...deferred(1), { input: { ...deferred(1)[0]!.input } }];
    expect((await cycle(withPlainHold)).held).toEqual(["held", "held"]);

    expect(tries).toEqual(["applied", "contended", "applied"]);
    // Ten deferred holds settled at 10 each, and the plain hold's 100 held.
    const after = await readWorld(world, ids);
    expect(after.tokens).toEqual([[100_000 - 100 - 100, 100, 1]]);
    expect(after.users).toEqual([[100_000 - 100 - 100, 100]]);
    expect(after.usage).toHaveLength(10);
  });
});
