import type BetterSqlite3 from 'better-sqlite3';
import { assertQuotaAmount } from './assert-quota-amount.js';
import type { CommitWindow } from './create-commit-window.js';

export interface SqliteQuotaLedger {
  /** Takes `amount` (its ledger row is written with the window's commit); the new balance, or null when it cannot cover it. */
  reserve(input: { requestId: string; tokenId: number; userId: number; amount: number; createdTime: number }): Promise<number | null>;
  /** Marks the reservation settled (only if it is not yet) and applies charge and refund, atomically. */
  settle(input: { requestId: string; actual: number; settledTime: number }): Promise<boolean>;
  /** used_quota += actual for an unlimited token (no reservation, no balance change). */
  chargeUnlimited(tokenId: number, actual: number): Promise<void>;
}

type ReserveInput = { requestId: string; tokenId: number; userId: number; amount: number; createdTime: number };

/**
 * The quota ledger on SQLite. Every statement runs synchronously on the one connection, so no other query can
 * interleave, and the writes of a few milliseconds share one commit (create-commit-window.ts): the commits were
 * the largest single cost of the hot path when each request paid two of its own.
 *
 * A reservation takes the balance at once (the one conditional UPDATE). Its ledger row is written once, in its
 * final state: settled, when the request settles within the window it reserved in (the hold and the settlement
 * then commit together or not at all, and the exactly-once guard is the in-memory hold leaving its map); open,
 * when the window commits with the request still in flight (crash recovery needs it then). A request settled in
 * its own window costs four statements (take, settle, ledger row, usage row) instead of eleven. A settlement of
 * a reservation whose open row was written (any request that outlives its window: most, under load or with real
 * models) goes the stored way: the exactly-once guard on the row, then the balance, in a savepoint. The SQL is the same as the Kysely queries beside this file
 * (reserve-token-quota, insert-reservation, settle-reservation, apply-token-settlement), which PostgreSQL uses;
 * the billing tests run both paths.
 */
export function createSqliteQuotaLedger(connection: BetterSqlite3.Database, commitWindow: CommitWindow): SqliteQuotaLedger {
  const takeQuota = connection.prepare(
    'update tokens set remain_quota = remain_quota - ? where id = ? and remain_quota >= ? returning remain_quota',
  );
  const insertReservation = connection.prepare(
    'insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time) values (?, ?, ?, ?, 0, null, ?, null)',
  );
  const insertSettledReservation = connection.prepare(
    'insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time) values (?, ?, ?, ?, 1, ?, ?, ?)',
  );
  const markSettled = connection.prepare(
    'update quota_reservations set settled = 1, actual = ?, settled_time = ? where id = ? and settled = 0 returning token_id, reserved',
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
  const addUsedQuota = connection.prepare('update tokens set used_quota = used_quota + ? where id = ?');

  // Holds taken in the open window whose ledger row is not written yet, by request id.
  const unwritten = new Map<string, ReserveInput>();
  commitWindow.beforeCommit(() => {
    for (const held of unwritten.values()) {
      try {
        insertReservation.run(held.requestId, held.tokenId, held.userId, held.amount, held.createdTime);
      } catch {
        // A row that cannot be written (a request id used before) must not fail the whole window: that one hold
        // is given back, and its settlement will find no reservation and charge nothing.
        applySettlement.run({ tokenId: held.tokenId, refund: held.amount, actual: 0 });
      }
    }
    unwritten.clear();
  });

  const reserve = (input: ReserveInput) => {
    if (unwritten.has(input.requestId)) throw new Error(`reservation ${input.requestId} exists already`);
    const row = takeQuota.get(input.amount, input.tokenId, input.amount) as { remain_quota: number } | undefined;
    if (row === undefined) return null;
    unwritten.set(input.requestId, input);
    return row.remain_quota;
  };
  const settleStored = connection.transaction((input: { requestId: string; actual: number; settledTime: number }) => {
    const settled = markSettled.get(input.actual, input.settledTime, input.requestId) as { token_id: number; reserved: number } | undefined;
    if (settled === undefined) return false;
    applySettlement.run({ tokenId: settled.token_id, refund: settled.reserved - input.actual, actual: input.actual });
    return true;
  });
  const settle = (input: { requestId: string; actual: number; settledTime: number }) => {
    const held = unwritten.get(input.requestId);
    if (held === undefined) return settleStored(input);
    // Exactly once: the hold leaves the map here, so a second settlement finds it no more, and its row says settled.
    unwritten.delete(input.requestId);
    try {
      insertSettledReservation.run(held.requestId, held.tokenId, held.userId, held.amount, input.actual, held.createdTime, input.settledTime);
    } catch {
      // As at commit: a row that cannot be written (a request id used before) gives its hold back, charging nothing.
      applySettlement.run({ tokenId: held.tokenId, refund: held.amount, actual: 0 });
      return false;
    }
    applySettlement.run({ tokenId: held.tokenId, refund: held.amount - input.actual, actual: input.actual });
    return true;
  };

  return {
    reserve(input) {
      assertQuotaAmount('amount', input.amount);
      return commitWindow.run(() => reserve(input), { savepoint: false });
    },
    settle(input) {
      assertQuotaAmount('actual', input.actual);
      return commitWindow.run(() => settle(input), { savepoint: false });
    },
    chargeUnlimited(tokenId, actual) {
      assertQuotaAmount('actual', actual);
      return commitWindow.run(() => void addUsedQuota.run(actual, tokenId), { savepoint: false });
    },
  };
}
