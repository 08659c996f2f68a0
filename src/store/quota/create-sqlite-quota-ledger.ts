import type BetterSqlite3 from 'better-sqlite3';
import { assertQuotaAmount } from './assert-quota-amount.js';
import type { CommitWindow } from './create-commit-window.js';

export interface SqliteQuotaLedger {
  /** Takes `amount` and writes the ledger row, atomically; the new balance, or null when it cannot cover it. */
  reserve(input: { requestId: string; tokenId: number; userId: number; amount: number; createdTime: number }): Promise<number | null>;
  /** Marks the reservation settled (only if it is not yet) and applies charge and refund, atomically. */
  settle(input: { requestId: string; actual: number; settledTime: number }): Promise<boolean>;
  /** used_quota += actual for an unlimited token (no reservation, no balance change). */
  chargeUnlimited(tokenId: number, actual: number): Promise<void>;
}

/**
 * The reservation and the settlement are each two statements that must commit together. On SQLite they run
 * synchronously, each in its own savepoint, no other query can interleave, and the calls of a few milliseconds
 * share one commit (create-commit-window.ts): the commits were the largest single cost of the hot path when each
 * request paid two of its own. The SQL is the same as the
 * Kysely queries beside this file (reserve-token-quota, insert-reservation, settle-reservation,
 * apply-token-settlement), which PostgreSQL uses; the billing tests run both paths.
 */
export function createSqliteQuotaLedger(connection: BetterSqlite3.Database, commitWindow: CommitWindow): SqliteQuotaLedger {
  const takeQuota = connection.prepare(
    'update tokens set remain_quota = remain_quota - ? where id = ? and remain_quota >= ? returning remain_quota',
  );
  const insertReservation = connection.prepare(
    'insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time) values (?, ?, ?, ?, 0, null, ?, null)',
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
  const chargeUnlimited = (input: { tokenId: number; actual: number }) => {
    addUsedQuota.run(input.actual, input.tokenId);
  };

  const reserve = (input: { requestId: string; tokenId: number; userId: number; amount: number; createdTime: number }) => {
    const row = takeQuota.get(input.amount, input.tokenId, input.amount) as { remain_quota: number } | undefined;
    if (row === undefined) return null;
    insertReservation.run(input.requestId, input.tokenId, input.userId, input.amount, input.createdTime);
    return row.remain_quota;
  };
  const settle = (input: { requestId: string; actual: number; settledTime: number }) => {
    const settled = markSettled.get(input.actual, input.settledTime, input.requestId) as { token_id: number; reserved: number } | undefined;
    if (settled === undefined) return false;
    applySettlement.run({ tokenId: settled.token_id, refund: settled.reserved - input.actual, actual: input.actual });
    return true;
  };

  return {
    reserve(input) {
      assertQuotaAmount('amount', input.amount);
      return commitWindow.run(() => reserve(input));
    },
    settle(input) {
      assertQuotaAmount('actual', input.actual);
      return commitWindow.run(() => settle(input));
    },
    chargeUnlimited(tokenId, actual) {
      assertQuotaAmount('actual', actual);
      return commitWindow.run(() => chargeUnlimited({ tokenId, actual }));
    },
  };
}
