import type BetterSqlite3 from "better-sqlite3";
import { assertQuotaAmount } from "./assert-quota-amount.js";
import type { CommitWindow } from "./create-commit-window.js";

export interface SqliteQuotaLedger {
  /** Takes `amount` (its ledger row is written with the window's commit); false when the balance cannot cover it. */
  reserve(input: ReserveInput): Promise<boolean>;
  /**
   * Marks the reservation settled (only if it is not yet) and applies charge and refund, atomically. True when
   * this call settles it. For a hold of this process the writes are deferred (applied before any other statement
   * on the connection and before the window commits); in the one case they cannot be (a ledger row that cannot be
   * written, its request id used before) the hold is given back whole, charging nothing. Resolves once the
   * settlement is committed (the commit is brought forward to the next turn of the event loop and shared by every
   * settlement of that turn), so an answer sent after it is billed even if the process is killed right after.
   */
  settle(input: SettleInput): Promise<boolean>;
  /** used_quota += actual for an unlimited token (no reservation, no balance change); resolves once committed. */
  chargeUnlimited(tokenId: number, actual: number): Promise<void>;
  /** Reservation recovery refunded this request's row: a later settlement must find it settled, not held. */
  forget(requestId: string): void;
}

type ReserveInput = { requestId: string; tokenId: number; userId: number; amount: number; createdTime: number };
type SettleInput = { requestId: string; actual: number; settledTime: number };

/**
 * The quota ledger on SQLite. Every statement runs synchronously on the one connection, so no other query can
 * interleave, and the writes of a few milliseconds share one commit (create-commit-window.ts): the commits were
 * the largest single cost of the hot path when each request paid two of its own.
 *
 * A reservation takes the balance at once (the one conditional UPDATE). Its ledger row is written once, in its
 * final state: settled, when the request settles within the window it reserved in (the hold and the settlement
 * then commit together or not at all); open, when the window commits with the request still in flight (crash
 * recovery needs it then), after which the settlement goes through the row's guard and the balance in a savepoint.
 * The exactly-once guard of a hold of this process is its leaving the in-memory maps; the settlement's writes are
 * deferred to run back to back with the window's other deferred writes, before any other statement reads the
 * connection and before the commit, so nothing observes a balance without them. A refused reservation applies
 * them first and tries once more. The statements are those of the Kysely queries beside this file
 * (reserve-token-quota, insert-reservation, settle-reservation, apply-token-settlement), which PostgreSQL uses,
 * without RETURNING where this process already knows the answer; the billing tests run both paths.
 */
export function createSqliteQuotaLedger(
  connection: BetterSqlite3.Database,
  commitWindow: CommitWindow,
): SqliteQuotaLedger {
  // Without RETURNING: the new balance is not needed, and RETURNING doubled the statement's cost (~20 µs against
  // ~10 µs, measured alternately in the gateway under load).
  const takeQuota = connection.prepare(
    "update tokens set remain_quota = remain_quota - ? where id = ? and remain_quota >= ?",
  );
  const insertReservation = connection.prepare(
    "insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time) values (?, ?, ?, ?, 0, null, ?, null)",
  );
  const insertSettledReservation = connection.prepare(
    "insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time) values (?, ?, ?, ?, 1, ?, ?, ?)",
  );
  const markSettled = connection.prepare(
    "update quota_reservations set settled = 1, actual = ?, settled_time = ? where id = ? and settled = 0 returning token_id, reserved",
  );
  // A hold of this process knows its token and amount: no RETURNING (which doubles a small statement's cost).
  const markHeldSettled = connection.prepare(
    "update quota_reservations set settled = 1, actual = ?, settled_time = ? where id = ? and settled = 0",
  );
  // The balance never goes below zero; a token reaching zero while enabled becomes 4 (quota exhausted).
  const applySettlement = connection.prepare(
    `update tokens set
       remain_quota = case when remain_quota + @refund < 0 then 0 else remain_quota + @refund end,
       used_quota = used_quota + @actual,
       status = case when (case when remain_quota + @refund < 0 then 0 else remain_quota + @refund end) = 0
                      and unlimited_quota = 0 and status = 1 then 4 else status end
     where id = @tokenId`,
  );
  const addUsedQuota = connection.prepare("update tokens set used_quota = used_quota + ? where id = ?");

  // Holds in flight, by request id: taken in the open window with no ledger row yet (`unwritten`), or with their
  // open row written by an earlier commit (`written`). A settlement takes its hold out of these maps at once, which
  // is the exactly-once guard, and defers the writes (create-commit-window.ts).
  const unwritten = new Map<string, ReserveInput>();
  const written = new Map<string, ReserveInput>();
  commitWindow.beforeCommit(() => {
    for (const held of unwritten.values()) {
      try {
        insertReservation.run(held.requestId, held.tokenId, held.userId, held.amount, held.createdTime);
        written.set(held.requestId, held);
      } catch {
        // A row that cannot be written (a request id used before) must not fail the whole window: that one hold
        // is given back, and its settlement will find no reservation and charge nothing.
        applySettlement.run({ tokenId: held.tokenId, refund: held.amount, actual: 0 });
      }
    }
    unwritten.clear();
  });

  const take = (input: ReserveInput) => takeQuota.run(input.amount, input.tokenId, input.amount).changes === 1;
  const reserve = (input: ReserveInput) => {
    if (unwritten.has(input.requestId) || written.has(input.requestId))
      throw new Error(`reservation ${input.requestId} exists already`);
    if (!take(input)) {
      // Deferred settlements may still owe this token refunds: apply them before refusing.
      commitWindow.applyDeferred();
      if (!take(input)) return false;
    }
    unwritten.set(input.requestId, input);
    return true;
  };
  const settleStored = connection.transaction((input: SettleInput) => {
    const settled = markSettled.get(input.actual, input.settledTime, input.requestId) as
      | { token_id: number; reserved: number }
      | undefined;
    if (settled === undefined) return false;
    applySettlement.run({ tokenId: settled.token_id, refund: settled.reserved - input.actual, actual: input.actual });
    return true;
  });
  const settleWritten = connection.transaction((held: ReserveInput, input: SettleInput) => {
    // No row changed: the window that wrote it did not commit, or recovery refunded it; either way nothing is owed.
    if (markHeldSettled.run(input.actual, input.settledTime, input.requestId).changes !== 1) return;
    applySettlement.run({ tokenId: held.tokenId, refund: held.amount - input.actual, actual: input.actual });
  });
  const settleUnwritten = (held: ReserveInput, input: SettleInput) => {
    try {
      insertSettledReservation.run(
        held.requestId,
        held.tokenId,
        held.userId,
        held.amount,
        input.actual,
        held.createdTime,
        input.settledTime,
      );
    } catch {
      // As at commit: a row that cannot be written (a request id used before) gives its hold back, charging nothing.
      applySettlement.run({ tokenId: held.tokenId, refund: held.amount, actual: 0 });
      return;
    }
    applySettlement.run({ tokenId: held.tokenId, refund: held.amount - input.actual, actual: input.actual });
  };
  const settle = (input: SettleInput): Promise<boolean> => {
    const unwrittenHold = unwritten.get(input.requestId);
    if (unwrittenHold !== undefined) {
      unwritten.delete(input.requestId);
      return commitWindow.deferDurably(() => settleUnwritten(unwrittenHold, input)).then(() => true);
    }
    const writtenHold = written.get(input.requestId);
    if (writtenHold !== undefined) {
      written.delete(input.requestId);
      return commitWindow.deferDurably(() => settleWritten(writtenHold, input)).then(() => true);
    }
    // Not held by this process (a row left by an earlier one, or settled already): through its row, now, after the
    // deferred settlements (one of them may be this reservation's).
    return commitWindow
      .run(
        () => {
          commitWindow.applyDeferred();
          return settleStored(input);
        },
        { savepoint: false },
      )
      .then(async (settled) => {
        await commitWindow.deferDurably(() => undefined);
        return settled;
      });
  };

  return {
    reserve(input) {
      assertQuotaAmount("amount", input.amount);
      return commitWindow.run(() => reserve(input), { savepoint: false });
    },
    settle(input) {
      assertQuotaAmount("actual", input.actual);
      return settle(input);
    },
    forget(requestId) {
      unwritten.delete(requestId);
      written.delete(requestId);
    },
    chargeUnlimited(tokenId, actual) {
      assertQuotaAmount("actual", actual);
      return commitWindow.deferDurably(() => void addUsedQuota.run(actual, tokenId));
    },
  };
}
