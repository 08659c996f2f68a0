import { createSqliteQuotaLedger } from "../store/quota/create-sqlite-quota-ledger.js";
import { createPostgresQuotaLedger, type PostgresReserveInput } from "../store/quota/create-postgres-quota-ledger.js";
import { findModelPrice } from "../models/find-model-price.js";
import type { ModelPrice } from "../config/gateway-config.js";
import { InsufficientQuotaError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { applyTokenSettlement } from "../store/quota/apply-token-settlement.js";
import { applyWalletSettlement } from "../store/quota/apply-wallet-settlement.js";
import { findUserWallet } from "../store/users/find-user-wallet.js";
import { assertQuotaAmount } from "../store/quota/assert-quota-amount.js";
import { findUnsettledReservationsOlderThan } from "../store/quota/find-unsettled-reservations-older-than.js";
import type { ReservationRecord } from "../store/quota/reservation-record.js";
import type { ReserveOutcome } from "../store/quota/reserve-outcome.js";
import { settleReservation } from "../store/quota/settle-reservation.js";
import { runInTransaction } from "../store/run-in-transaction.js";
import { findTokenByIdForUser } from "../store/tokens/find-token-by-id-for-user.js";
import type { BillingService, Reservation, UsageLogEntry } from "./billing-service.js";
import { buildInsufficientQuotaMessage } from "./build-insufficient-quota-message.js";
import { computeWorstCaseCost } from "./compute-worst-case-cost.js";
import { createUsageLogWriter } from "./create-usage-log-writer.js";
import { createSqliteUsageLogInserter } from "../store/usage-logs/create-sqlite-usage-log-inserter.js";
import type { NewUsageLog } from "../store/usage-logs/insert-usage-logs.js";
import { priceMeteredUsage } from "./price-metered-usage.js";
import { storableText } from "../store/storable-text.js";

/** What billing needs of the gateway; a full GatewayContext fits, and createGateway can build billing before it. */
export type BillingContext = Pick<GatewayContext, "config" | "database" | "logger" | "now">;

export interface BillingServiceOptions {
  /** How long a usage row may wait before its batch is written (default 500 ms). */
  flushIntervalMs?: number;
  /** PostgreSQL: hold batches and settlement batches out at once, each kind (default: the configuration's). */
  ledgerBatchesInFlight?: number;
}

const RECOVERY_PAGE_SIZE = 500;

/**
 * Decisions an operator should know:
 * - A model with no `pricing` entry never reaches billing: the relay refuses it (403) unless the operator set
 *   `pricing.allow_unpriced`, and then it is billed at 0 with a warning logged once per model.
 * - The worst case caps the output at the model's `max_output_tokens` when the request asks for more: the model
 *   cannot produce more, and holding more only refuses requests that would have been affordable.
 * - reserve takes the balance and writes the ledger row in one statement on PostgreSQL (one call for every hold
 *   that queued while the previous batch was out), so a crash leaves both or neither and recovery finds every hold;
 *   SQLite's ledger writes the row with its window.
 * - A request holds its worst case from two balances at once: the token's (unless the token is unlimited) and its
 *   owner's wallet (unless the wallet is unlimited); both or neither, in one statement on PostgreSQL and one
 *   synchronous step on SQLite. The token is a cap, the wallet is the money: an unlimited token spends only what its
 *   owner's wallet holds.
 * - settle marks the reservation settled and moves both balances in one transaction (PostgreSQL: one statement
 *   for a batch of settlements and their usage rows), so a crash cannot leave a reservation settled but unrefunded. A request holding nothing (an unlimited token of an unlimited wallet) has no
 *   ledger row: the exactly-once guard for it is the Reservation object itself (settling it twice is a no-op).
 * - recoverAbandonedReservations refunds whole: pick `olderThanSeconds` above the longest request (streams, video
 *   polls), or a live request's later settle becomes a no-op and its usage goes unbilled.
 */
export function createBillingService(context: BillingContext, options: BillingServiceOptions = {}): BillingService {
  const { db } = context.database;
  const { config, logger } = context;

  const modelsWithoutPrice = new Set<string>();
  // The exactly-once guards of reservations with no ledger row: nothing held; a hold deferred to its settlement.
  const settledWithoutLedgerRow = new WeakSet<Reservation>();
  const deferredHolds = new WeakMap<Reservation, PostgresReserveInput>();
  // SQLite: reservation and settlement applied at once, committed in windows (see create-sqlite-quota-ledger.ts).
  const { sqliteConnection, sqliteCommitWindow } = context.database;
  const sqliteLedger =
    sqliteConnection && sqliteCommitWindow ? createSqliteQuotaLedger(sqliteConnection, sqliteCommitWindow) : undefined;
  // PostgreSQL: holds and settlements of many requests per statement (see create-postgres-quota-ledger.ts).
  const postgresLedger = sqliteLedger
    ? undefined
    : createPostgresQuotaLedger(db, {
        now: context.now,
        batchesInFlight: options.ledgerBatchesInFlight ?? context.config.databaseLedgerBatchesInFlight,
        holdDeferral: { factor: context.config.databaseLedgerDeferHoldsMargin, maxAgeMs: 2_000 },
      });
  const usageLogWriter = createUsageLogWriter(
    context.database,
    logger,
    options.flushIntervalMs ?? 500,
    sqliteConnection && sqliteCommitWindow
      ? { insertOne: createSqliteUsageLogInserter(sqliteConnection), commitWindow: sqliteCommitWindow }
      : undefined,
  );

  function priceOf(model: string, requestId?: string): ModelPrice {
    const price = findModelPrice(config.pricing, model);
    if (price) return price;
    if (!modelsWithoutPrice.has(model)) {
      modelsWithoutPrice.add(model);
      logger.warn(
        { model, requestId },
        `model ${model} has no price configured; its usage is billed at 0 until pricing.${model} is set`,
      );
    }
    return {};
  }

  function toUsageRow(entry: UsageLogEntry): NewUsageLog {
    return {
      userId: entry.userId,
      tokenId: entry.tokenId,
      tokenName: entry.tokenName,
      model: entry.model,
      channelId: entry.channelId,
      requestId: entry.requestId,
      isStream: entry.isStream,
      promptTokens: entry.usage.promptTokens,
      completionTokens: entry.usage.completionTokens,
      cachedTokens: entry.usage.cachedTokens,
      cacheWriteTokens: entry.usage.cacheWriteTokens ?? 0,
      reasoningTokens: entry.usage.reasoningTokens,
      quota: entry.quota,
      latencyMs: entry.latencyMs,
      status: entry.status,
      errorMessage: entry.status === "error" ? storableText(entry.errorMessage ?? "request failed") : null,
      createdTime: context.now(),
      group: entry.group,
    };
  }

  function groupRatio(group: string): number {
    return config.groupRatios[group] ?? 1;
  }

  function defaultMaxOutputTokens(model: string): number {
    return findModelPrice(config.pricing, model)?.maxOutputTokens ?? config.defaultMaxOutputTokens;
  }

  async function refundWhole(record: ReservationRecord): Promise<boolean> {
    if (postgresLedger)
      return postgresLedger.settle({
        reservationId: record.id,
        tokenId: record.tokenId,
        userId: record.userId,
        actual: 0,
      });
    return runInTransaction(db, async (transaction) => {
      const settled = await settleReservation(transaction, {
        reservationId: record.id,
        actual: 0,
        settledTime: context.now(),
      });
      if (!settled) return false;
      sqliteLedger?.forget(record.id);
      // A zero hold has nothing to give back; applying it would only flag a token already at zero as exhausted.
      if (settled.reserved > 0) {
        if (settled.tokenHeld)
          await applyTokenSettlement(transaction, { tokenId: settled.tokenId, refund: settled.reserved, actual: 0 });
        if (settled.walletHeld)
          await applyWalletSettlement(transaction, { userId: settled.userId, refund: settled.reserved, actual: 0 });
      }
      return true;
    });
  }

  /** The error of a hold the token's or the wallet's balance could not cover, quoting that balance as it is now. */
  async function refusal(short: "token" | "wallet", tokenId: number, userId: number, amount: number) {
    if (short === "wallet") {
      const wallet = await findUserWallet(db, userId);
      return new InsufficientQuotaError(buildInsufficientQuotaMessage(amount, wallet?.quota ?? 0, "wallet"));
    }
    const current = await findTokenByIdForUser(db, tokenId, userId);
    return new InsufficientQuotaError(buildInsufficientQuotaMessage(amount, current?.remainQuota ?? 0));
  }

  return {
    priceUsage(model, group, usage) {
      return priceMeteredUsage(priceOf(model), groupRatio(group), usage);
    },

    worstCaseCost(model, group, promptTokenEstimate, maxOutputTokens, requestId) {
      const price = priceOf(model, requestId);
      const outputCap = Math.min(maxOutputTokens ?? defaultMaxOutputTokens(model), price.maxOutputTokens ?? Infinity);
      return computeWorstCaseCost(price, groupRatio(group), promptTokenEstimate, outputCap);
    },

    defaultMaxOutputTokens,

    async reserve(token, requestId, amount, owner = {}, options = {}) {
      const base = { requestId, tokenId: token.id, userId: token.userId };
      const free = { ...base, reserved: 0, unlimited: true };
      // Nothing to hold: the hot path of a single-user deployment asks nothing of the database here.
      if (token.unlimitedQuota && owner.walletUnlimited === true) return free;
      assertQuotaAmount("amount", amount);
      const input = {
        requestId,
        tokenId: token.id,
        userId: token.userId,
        amount,
        tokenLimited: !token.unlimitedQuota,
        createdTime: context.now(),
      };
      // PostgreSQL: a whole answer on balances many times its worst case goes upstream at once, its hold taken with
      // its settlement (hold-deferral.ts); nothing is written, so a crash before the settlement leaves nothing held.
      if (postgresLedger && options.answerWithheld === true && postgresLedger.deferHold(input)) {
        const reservation: Reservation = { ...base, reserved: amount, unlimited: false, deferred: true };
        deferredHolds.set(reservation, input);
        return reservation;
      }
      // PostgreSQL: one call per batch; each hold and its ledger row commit together, so a crash never strands a hold
      // unfound.
      const outcome: ReserveOutcome = sqliteLedger
        ? await sqliteLedger.reserve(input)
        : await postgresLedger!.reserve(input);
      if (outcome === "held") return { ...base, reserved: amount, unlimited: false };
      if (outcome === "free") return free;
      throw await refusal(outcome, token.id, token.userId, amount);
    },

    async settle(reservation, actualCost, usage) {
      assertQuotaAmount("actualCost", actualCost);
      const usageRow = usage ? toUsageRow(usage) : undefined;
      // SQLite: the row is deferred into the ledger's window ahead of the settlement, so one commit holds both.
      if (sqliteLedger && usageRow) usageLogWriter.enqueue(usageRow);
      if (reservation.deferred) {
        // Taken out before the statement: a second settle of the same reservation is a no-op.
        const hold = deferredHolds.get(reservation);
        if (hold === undefined) return false;
        deferredHolds.delete(reservation);
        const outcome = await postgresLedger!.settleDeferred(hold, { actual: actualCost, usageRow });
        if (outcome === "held" || outcome === "free") return true;
        throw await refusal(outcome, hold.tokenId, hold.userId, hold.amount);
      }
      if (reservation.unlimited) {
        if (settledWithoutLedgerRow.has(reservation)) return false;
        settledWithoutLedgerRow.add(reservation);
        if (sqliteLedger) {
          await sqliteLedger.chargeUnlimited(reservation.tokenId, reservation.userId, actualCost);
          return true;
        }
        // No balance moves; used_quota still counts what the token and its owner spent.
        return postgresLedger!.settle({
          reservationId: null,
          tokenId: reservation.tokenId,
          userId: reservation.userId,
          actual: actualCost,
          usageRow,
        });
      }
      if (sqliteLedger) {
        return sqliteLedger.settle({
          requestId: reservation.requestId,
          actual: actualCost,
          settledTime: context.now(),
        });
      }
      return postgresLedger!.settle({
        reservationId: reservation.requestId,
        tokenId: reservation.tokenId,
        userId: reservation.userId,
        actual: actualCost,
        usageRow,
      });
    },

    recordUsage(entry) {
      usageLogWriter.enqueue(toUsageRow(entry));
    },

    flush: async () => {
      await usageLogWriter.flush();
      sqliteCommitWindow?.commitNow();
    },

    async recoverAbandonedReservations(olderThanSeconds) {
      // SQLite writes a reservation's row when its window commits: commit, so every hold in flight has one.
      sqliteCommitWindow?.commitNow();
      const createdBefore = context.now() - olderThanSeconds;
      let recovered = 0;
      for (;;) {
        const abandoned = await findUnsettledReservationsOlderThan(db, createdBefore, RECOVERY_PAGE_SIZE);
        for (const record of abandoned) {
          if (await refundWhole(record)) recovered += 1;
        }
        if (abandoned.length < RECOVERY_PAGE_SIZE) break;
      }
      if (recovered > 0)
        logger.warn({ recovered, olderThanSeconds }, "refunded reservations abandoned by an earlier process");
      return recovered;
    },
  };
}
