import type BetterSqlite3 from "better-sqlite3";
import { assertQuotaAmount } from "./assert-quota-amount.js";
import type { CommitWindow } from "./create-commit-window.js";
import type { ReserveOutcome } from "./reserve-outcome.js";

export interface SqliteQuotaLedger {
  /**
   * Takes `amount` from the token (unless `tokenLimited` is false) and from the owner's wallet (unless it is
   * unlimited), or neither; the ledger row is written with the window's commit. Says which balance was short.
   */
  reserve(input: ReserveRequest): Promise<ReserveOutcome>;
  /**
   * Marks the reservation settled (only if it is not yet) and applies charge and refund, atomically. True when
   * this call settles it. For a hold of this process the writes are deferred (applied before any other statement
   * on the connection and before the window commits); in the one case they cannot be (a ledger row that cannot be
   * written, its request id used before) the hold is given back whole, charging nothing. Resolves once the
   * settlement is committed (the commit is brought forward to the next turn of the event loop and shared by every
   * settlement of that turn), so an answer sent after it is billed even if the process is killed right after.
   */
  settle(input: SettleInput): Promise<boolean>;
  /**
   * used_quota += actual on the token and its owner for a request that held nothing (an unlimited token of an
   * unlimited wallet: no reservation, no balance change); resolves once committed.
   */
  chargeUnlimited(tokenId: number, userId: number, actual: number): Promise<void>;
  /** Reservation recovery refunded this request's row: a later settlement must find it settled, not held. */
  forget(requestId: string): void;
}

type ReserveRequest = {
  requestId: string;
  tokenId: number;
  userId: number;
  amount: number;
  /** false for an unlimited token: only the wallet is taken (default true) */
  tokenLimited?: boolean;
  createdTime: number;
};
/** A hold of this process: what was taken, and from which balances. */
type ReserveInput = ReserveRequest & { tokenLimited: boolean; walletHeld: boolean };
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
  const giveQuotaBack = connection.prepare("update tokens set remain_quota = remain_quota + ? where id = ?");
  const takeWallet = connection.prepare(
    "update users set quota = quota - ? where id = ? and quota_unlimited = 0 and quota >= ?",
  );
  const walletIsUnlimited = connection.prepare("select quota_unlimited from users where id = ?").pluck();
  const insertReservation = connection.prepare(
    "insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held) values (?, ?, ?, ?, 0, null, ?, null, ?, ?)",
  );
  const insertSettledReservation = connection.prepare(
    "insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held) values (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)",
  );
  const markSettled = connection.prepare(
    "update quota_reservations set settled = 1, actual = ?, settled_time = ? where id = ? and settled = 0 returning token_id, user_id, reserved, token_held, wallet_held",
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
  // The wallet never goes below zero either; its used_quota counts every charge, limited or not.
  const applyWalletSettlement = connection.prepare(
    `update users set
       quota = case when quota + @refund < 0 then 0 else quota + @refund end,
       used_quota = used_quota + @actual
     where id = @userId`,
  );
  // Both balances of one settled hold, token first (the order every statement takes the two rows in).
  const applyBoth = (held: SettledHold, actual: number) => {
    const refund = held.reserved - actual;
    if (held.tokenHeld) applySettlement.run({ tokenId: held.tokenId, refund, actual });
    else addUsedQuota.run(actual, held.tokenId);
    applyWalletSettlement.run({ userId: held.userId, refund: held.walletHeld ? refund : 0, actual });
  };
  const giveBack = (held: ReserveInput) =>
    applyBoth({ ...held, reserved: held.amount, tokenHeld: held.tokenLimited }, 0);

  // Holds in flight, by request id: taken in the open window with no ledger row yet (`unwritten`), or with their
  // open row written by an earlier commit (`written`). A settlement takes its hold out of these maps at once, which
  // is the exactly-once guard, and defers the writes (create-commit-window.ts).
  const unwritten = new Map<string, ReserveInput>();
  const written = new Map<string, ReserveInput>();
  commitWindow.beforeCommit(() => {
    for (const held of unwritten.values()) {
      try {
        insertReservation.run(
          held.requestId,
          held.tokenId,
          held.userId,
          held.amount,
          held.createdTime,
          held.tokenLimited ? 1 : 0,
          held.walletHeld ? 1 : 0,
        );
        written.set(held.requestId, held);
      } catch {
        // A row that cannot be written (a request id used before) must not fail the whole window: that one hold
        // is given back, and its settlement will find no reservation and charge nothing.
        giveBack(held);
      }
    }
    unwritten.clear();
  });

  const take = (input: ReserveRequest) => takeQuota.run(input.amount, input.tokenId, input.amount).changes === 1;
  // True when the wallet was taken, false when it is unlimited, undefined when it cannot cover the amount.
  const takeFromWallet = (input: ReserveRequest): boolean | undefined => {
    if (takeWallet.run(input.amount, input.userId, input.amount).changes === 1) return true;
    if (walletIsUnlimited.get(input.userId) === 1) return false;
    return undefined;
  };
  const reserve = (input: ReserveRequest): ReserveOutcome => {
    if (unwritten.has(input.requestId) || written.has(input.requestId))
      throw new Error(`reservation ${input.requestId} exists already`);
    const tokenLimited = input.tokenLimited ?? true;
    if (tokenLimited && !take(input)) {
      // Deferred settlements may still owe this token refunds: apply them before refusing.
      commitWindow.applyDeferred();
      if (!take(input)) return "token";
    }
    let walletHeld = takeFromWallet(input);
    if (walletHeld === undefined) {
      commitWindow.applyDeferred();
      walletHeld = takeFromWallet(input);
      if (walletHeld === undefined) {
        if (tokenLimited) giveQuotaBack.run(input.amount, input.tokenId);
        return "wallet";
      }
    }
    if (!tokenLimited && !walletHeld) return "free";
    unwritten.set(input.requestId, { ...input, tokenLimited, walletHeld });
    return "held";
  };
  const settleStored = connection.transaction((input: SettleInput) => {
    const settled = markSettled.get(input.actual, input.settledTime, input.requestId) as
      | { token_id: number; user_id: number; reserved: number; token_held: number; wallet_held: number }
      | undefined;
    if (settled === undefined) return false;
    applyBoth(
      {
        tokenId: settled.token_id,
        userId: settled.user_id,
        reserved: settled.reserved,
        tokenHeld: settled.token_held === 1,
        walletHeld: settled.wallet_held === 1,
      },
      input.actual,
    );
    return true;
  });
  const settleWritten = connection.transaction((held: ReserveInput, input: SettleInput) => {
    // No row changed: the window that wrote it did not commit, or recovery refunded it; either way nothing is owed.
    if (markHeldSettled.run(input.actual, input.settledTime, input.requestId).changes !== 1) return;
    applyBoth(asSettledHold(held), input.actual);
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
        held.tokenLimited ? 1 : 0,
        held.walletHeld ? 1 : 0,
      );
    } catch {
      // As at commit: a row that cannot be written (a request id used before) gives its hold back, charging nothing.
      giveBack(held);
      return;
    }
    applyBoth(asSettledHold(held), input.actual);
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
    chargeUnlimited(tokenId, userId, actual) {
      assertQuotaAmount("actual", actual);
      return commitWindow.deferDurably(() =>
        applyBoth({ tokenId, userId, reserved: 0, tokenHeld: false, walletHeld: false }, actual),
      );
    },
  };
}

type SettledHold = { tokenId: number; userId: number; reserved: number; tokenHeld: boolean; walletHeld: boolean };

function asSettledHold(held: ReserveInput): SettledHold {
  return {
    tokenId: held.tokenId,
    userId: held.userId,
    reserved: held.amount,
    tokenHeld: held.tokenLimited,
    walletHeld: held.walletHeld,
  };
}
