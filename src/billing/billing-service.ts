import type { TokenRecord } from "../store/tokens/token-record.js";
import type { UsageLogRecord } from "../store/usage-logs/usage-log-record.js";
import type { MeteredUsage } from "./metered-usage.js";

export interface Reservation {
  requestId: string;
  tokenId: number;
  userId: number;
  /** Units held from the token (unless unlimited) and its owner's wallet (unless unlimited); 0 when neither holds. */
  reserved: number;
  /** Nothing held and no ledger row: an unlimited token of an unlimited wallet (usage is still recorded). */
  unlimited: boolean;
  /**
   * Sent upstream before its hold was taken (PostgreSQL, balances many times the worst case): settle takes the hold
   * and settles in one statement, and throws InsufficientQuotaError if the balances no longer cover `reserved`.
   */
  deferred?: true;
}

/** What the relay reports of one request: the stored row's fields, with usage as metered and no id or time yet. */
export type UsageLogEntry = Pick<
  UsageLogRecord,
  | "userId"
  | "tokenId"
  | "tokenName"
  | "model"
  | "channelId"
  | "requestId"
  | "isStream"
  | "quota"
  | "latencyMs"
  | "status"
  | "group"
> & {
  usage: MeteredUsage;
  errorMessage?: string;
};

/**
 * Money rules of DESIGN.md: price from config (USD per 1M tokens × group ratio, 500,000 units = 1 USD,
 * rounded to the nearest unit); reserve the worst case in one conditional UPDATE; settle exactly once.
 */
export interface BillingService {
  /** Units for observed usage of `model` billed under `group`. With input 2, output 4: 10 + 5 tokens → 20 units. */
  priceUsage(model: string, group: string, usage: MeteredUsage): number;
  /** The worst case: estimated prompt tokens at the input price plus the output cap at the output price. */
  worstCaseCost(
    model: string,
    group: string,
    promptTokenEstimate: number,
    maxOutputTokens: number | undefined,
    /** Quoted in the one-time "no price configured" warning, which the first request of a model triggers. */
    requestId?: string,
  ): number;
  /** The output cap used for the worst case when the request gives none (per-model max_output_tokens, else default). */
  defaultMaxOutputTokens(model: string): number;
  /**
   * Holds `amount` units of the token's quota (unless the token is unlimited) and of its owner's wallet (unless the
   * wallet is unlimited), both or neither. Throws InsufficientQuotaError (402) whose message says what the request
   * could cost, which balance is short and how to lower it, when either cannot cover it. `owner.walletUnlimited` is
   * what authentication read of the owner: when it and the token are both unlimited the database is not asked.
   */
  reserve(
    token: TokenRecord,
    requestId: string,
    amount: number,
    owner?: { walletUnlimited?: boolean },
    /**
     * `answerWithheld`: nothing of the answer reaches the client before settle answers (a whole answer, not a
     * stream), so the hold may be deferred to the settlement (Reservation.deferred).
     */
    options?: { answerWithheld?: boolean },
  ): Promise<Reservation>;
  /**
   * Charges `actualCost` and refunds the rest of the reservation. When the actual cost exceeds the reservation
   * (the prompt estimate was low) the difference comes from the remaining balance as far as it goes: the balance
   * never goes below zero. Exactly once per reservation: a second call is a no-op returning false. A token whose
   * balance reaches 0 becomes status 4. Unlimited tokens only accumulate used_quota.
   *
   * With `usage`, the request's usage log row is written in the settlement's commit: an answered (billed) request
   * always has its row, readable as soon as settle resolves. A deferred reservation the balances no longer cover
   * throws InsufficientQuotaError and writes nothing: its answer must not be sent.
   */
  settle(reservation: Reservation, actualCost: number, usage?: UsageLogEntry): Promise<boolean>;
  /** Queues a usage log row with no settlement beside it; rows are written in batches off the hot path. */
  recordUsage(entry: UsageLogEntry): void;
  /** Writes queued rows now (tests, shutdown). */
  flush(): Promise<void>;
  /** Settles reservations left open by a crash (older than `olderThanSeconds`) by refunding them whole. */
  recoverAbandonedReservations(olderThanSeconds: number): Promise<number>;
}
