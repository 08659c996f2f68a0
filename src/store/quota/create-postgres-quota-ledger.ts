import type { Kysely } from "kysely";
import { createGroupCommitQueue } from "../postgres/create-group-commit-queue.js";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";
import { createHoldDeferral, type HoldDeferralOptions } from "./hold-deferral.js";
import {
  createLedgerCycleStatements,
  DeferredHoldNotTakenError,
  type LedgerCycleHold,
} from "./ledger-cycle-statements.js";
import { createLoneLedgerStatements } from "./lone-ledger-statements.js";
import type { PostgresReserveInput, PostgresSettleInput } from "./postgres-ledger-items.js";
import type { ReserveOutcome } from "./reserve-outcome.js";

export interface PostgresQuotaLedger {
  /**
   * Takes `amount` from the token (unless `tokenLimited` is false) and the owner's wallet (unless it is unlimited),
   * both or neither, and writes the ledger row, committed with the other holds of its batch.
   */
  reserve(input: PostgresReserveInput): Promise<ReserveOutcome>;
  /**
   * Settles a hold exactly once (true when this call settled it) and writes the usage row, committed with the other
   * settlements of its batch. `reservationId` null: the request held nothing, only `used_quota` grows.
   */
  settle(input: PostgresSettleInput): Promise<boolean>;
  /**
   * True when a request may go upstream without its hold (hold-deferral.ts): the balances this instance read lately
   * cover it many times over. The caller then must not let any of its answer out before `settleDeferred` answers.
   */
  deferHold(input: PostgresReserveInput): boolean;
  /**
   * Takes a deferred hold and settles it at `actual` with its usage row: one statement alone, in one cycle with its
   * batch (migrations 0021 and 0022). Answers what the hold would have: `held` or `free` (settled), or the balance
   * that could not cover it (nothing changed, no row written). Once per deferred hold.
   */
  settleDeferred(
    input: PostgresReserveInput,
    settlement: Pick<PostgresSettleInput, "actual" | "usageRow">,
  ): Promise<ReserveOutcome>;
}

export type { PostgresReserveInput, PostgresSettleInput } from "./postgres-ledger-items.js";

export interface PostgresQuotaLedgerOptions {
  /** Unix seconds: the created and settled times of a batch's rows. */
  now(): number;
  /**
   * Batches out at once (default 1); each holds a pooled connection. More than one pays only when the batches touch
   * different rows: on a hot key they wait on each other's row lock anyway, and each extra batch out splits the same
   * requests into more statements and commits.
   */
  batchesInFlight?: number;
  /** Items of one batch at most (default 256). */
  maxBatchSize?: number;
  /** When a request may go upstream before its hold (default: a hundredfold margin, balances read within 2 s). */
  holdDeferral?: HoldDeferralOptions;
}

type LedgerItem =
  | { kind: "hold"; input: PostgresReserveInput }
  | { kind: "settle"; input: PostgresSettleInput }
  | { kind: "deferred"; input: PostgresReserveInput; settlement: Pick<PostgresSettleInput, "actual" | "usageRow"> };
type HoldAnswer = ReserveOutcome | "duplicate";

/**
 * The quota ledger on PostgreSQL. Every request of a busy key updates the same token row (and its owner's wallet
 * row); one statement per request made them queue on that row's lock, one commit each. Here holds and settlements
 * go through one group-commit queue: whatever arrived while the previous batch was out goes as one call of
 * `run_ledger_cycle` (migrations 0014, 0021 and 0022: the batch's settlements by `settle_reservation_batch`, then its
 * holds by `reserve_reservation_batch`, migration 0013, then its deferred holds, each written already settled, by
 * `hold_and_settle_reservation_batch`; a batch of one item as one plain statement of its own,
 * lone-ledger-statements.ts, and a batch of deferred holds alone first as one plain statement that writes them
 * settled when it provably may, deferred-cycle-statement.ts), one statement and one commit, which takes each row's
 * lock once and applies the items with the same conditional updates a single request made. No lock is held across a
 * round trip to the gateway: each batch is a single autocommitted statement (a batch of deferred holds that the plain
 * statement may not write settled, two: that one, which only locked, and the call). A request whose hold was deferred (hold-deferral.ts)
 * sends one item for both: alone, one statement takes and settles the hold; in a batch, one cycle holds and then
 * settles it, and a deferred hold the cycle cannot take rolls the cycle back and goes alone.
 *
 * The usage rows of a settlement batch, their hourly rollups and their hour and model rollups are written by the same
 * statement (ledger-usage-rows.ts: writable CTEs over column arrays, so the SQL text and its parameter count stay the
 * same whatever the number of rows past one), so a settled request always has its row and the rollups stay the sum of
 * the rows. PostgreSQL runs writable CTEs that the main query does not read after it, so the settlement function
 * locks the batch's tokens and users first; each upsert then locks its rollup rows in key order (the increments are
 * sorted), so two batches lock in one order.
 */
export function createPostgresQuotaLedger(
  db: Kysely<Database>,
  options: PostgresQuotaLedgerOptions,
): PostgresQuotaLedger {
  // One batch out per instance, holds and settlements together. The batches of a hot key (and of one user's wallet)
  // run one after the other on its row lock, which is held until the commit's WAL flush, and each costs a round trip
  // and the wake-ups of both processes; the requests a second it serves are those batches times their size. Each
  // more batch allowed out per instance (and a batch of holds apart from one of settlements) only divides the same
  // requests into more, smaller statements — and a second instance doubled that — so two instances on one key served
  // fewer requests than one. With one out, a batch is whatever queued while the previous one ran.
  const maxInFlight = options.batchesInFlight ?? 1;
  const maxBatchSize = options.maxBatchSize ?? 256;

  const deferral = createHoldDeferral(options.holdDeferral ?? { factor: 100, maxAgeMs: 2_000 });

  const cycleStatements = createLedgerCycleStatements(db);
  const cycles = createGroupCommitQueue<LedgerItem, HoldAnswer | boolean>({
    maxInFlight,
    maxBatchSize,
    async run(items) {
      try {
        return await runBatch(items);
      } catch (error) {
        if (!(error instanceof DeferredHoldNotTakenError)) throw error;
        // Rare: a balance spent since a deferral read it, or a repeated id. Nothing of the batch was applied; the
        // deferred holds go alone, whose statement writes a usage row only for a hold it took, and the rest again.
        const answers: (HoldAnswer | boolean)[] = new Array(items.length);
        const others = items.flatMap((item, index) => (item.kind === "deferred" ? [] : [index]));
        if (others.length > 0) {
          const othersAnswers = await runBatch(others.map((index) => items[index]!));
          others.forEach((index, position) => {
            answers[index] = othersAnswers[position]!;
          });
        }
        for (const [index, item] of items.entries())
          if (item.kind === "deferred") answers[index] = await runAlone(item);
        return answers;
      }
    },
  });

  /** A batch of one as its plain statement, a larger one as a ledger cycle. */
  async function runBatch(items: readonly LedgerItem[]): Promise<(HoldAnswer | boolean)[]> {
    return items.length === 1 ? [await runAlone(items[0]!)] : runCycle(items);
  }

  /**
   * Several items as one ledger cycle: the settlements, then the holds, then the deferred holds, each taken and settled
   * at once (migrations 0021 and 0022). Each hold's answer also tells the balances after the cycle, which keep deferral
   * deciding on fresh balances while the instance is busy.
   */
  async function runCycle(items: readonly LedgerItem[]): Promise<(HoldAnswer | boolean)[]> {
    const holds: LedgerCycleHold[] = [];
    const settlements: PostgresSettleInput[] = [];
    for (const item of items) {
      if (item.kind === "settle") settlements.push(item.input);
      else
        holds.push(item.kind === "hold" ? { input: item.input } : { input: item.input, settlement: item.settlement });
    }
    const { settled, held, balances } = await cycleStatements.run(settlements, holds, options.now());
    holds.forEach((hold, index) => {
      deferral.see(hold.input, balances[index]!, 0);
    });
    let nextSettled = 0;
    let nextHeld = 0;
    return items.map((item) => (item.kind === "settle" ? settled[nextSettled++]! : held[nextHeld++]!));
  }

  // A batch of one (every batch of a quiet instance) as one plain statement: lone-ledger-statements.ts.
  // Each lone statement's answer also tells what the balances were, which is what deferral decides on.
  const lone = createLoneLedgerStatements(db);
  async function runAlone(item: LedgerItem): Promise<HoldAnswer | boolean> {
    if (item.kind === "hold") {
      const answer = await lone.hold(item.input, options.now());
      deferral.see(item.input, answer, answer.outcome === "held" ? item.input.amount : 0);
      return answer.outcome;
    }
    if (item.kind === "deferred") {
      const { usageRow, actual } = item.settlement;
      const answer = await lone.holdAndSettle(item.input, actual, options.now(), usageRow);
      deferral.see(item.input, answer, answer.outcome === "held" ? actual : 0);
      return answer.outcome;
    }
    const answer = await lone.settle(item.input, options.now());
    // Read before the settlement gave back what its hold had taken beyond the cost: less the cost, a lower bound.
    const { tokenId, userId } = item.input;
    deferral.see({ tokenId, userId, tokenLimited: answer.token_balance !== null }, answer, item.input.actual);
    return answer.settled;
  }

  return {
    async reserve(input) {
      assertQuotaAmount("amount", input.amount);
      const outcome = (await cycles.submit({ kind: "hold", input })) as ReserveOutcome | "duplicate";
      // A request id is made once per request; a repeat means a bug upstream of here, not a short balance.
      if (outcome === "duplicate") throw new Error(`reservation ${input.requestId} exists already`);
      return outcome;
    },
    settle(input) {
      assertQuotaAmount("actual", input.actual);
      return cycles.submit({ kind: "settle", input }) as Promise<boolean>;
    },
    deferHold(input) {
      return deferral.tryDefer(input);
    },
    async settleDeferred(input, settlement) {
      assertQuotaAmount("actual", settlement.actual);
      try {
        // Held or free: taken and settled, alone or in its batch's cycle. Anything else changed nothing.
        const outcome = (await cycles.submit({ kind: "deferred", input, settlement })) as HoldAnswer;
        if (outcome === "duplicate") throw new Error(`reservation ${input.requestId} exists already`);
        return outcome;
      } finally {
        deferral.release(input);
      }
    },
  };
}
