import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";

/**
 * How a reservation went: `held` (taken from the token, unless it is unlimited, and from the owner's wallet, unless it
 * is unlimited; the ledger row written), `free` (both unlimited: nothing taken, no row), or the balance that could
 * not cover the amount (nothing taken).
 */
export type ReserveOutcome = "held" | "free" | "token" | "wallet";

export interface ReserveWithLedgerRowInput {
  /** the request id */
  id: string;
  tokenId: number;
  userId: number;
  reserved: number;
  /** false for an unlimited token: only the wallet is taken (default true) */
  tokenLimited?: boolean;
  createdTime: number;
}

/**
 * PostgreSQL: takes the amount from the token's balance and its owner's wallet and writes the reservation's ledger
 * row in one call of `reserve_token_and_wallet` (migration 0007), so a process killed at any point leaves all or
 * nothing (a hold without its row could never be found and refunded by recovery), and no row lock outlives the
 * call. A repeated request id fails on the primary key and takes nothing. (SQLite's ledger does the same in its
 * commit window.)
 */
export async function reserveQuotaWithLedgerRow(
  db: Kysely<Database>,
  input: ReserveWithLedgerRowInput,
): Promise<ReserveOutcome> {
  assertQuotaAmount("reserved", input.reserved);
  const result = await sql<{ outcome: ReserveOutcome }>`
    select reserve_token_and_wallet(${input.id}::text, ${input.tokenId}::bigint, ${input.userId}::bigint,
      ${input.reserved}::bigint, ${input.tokenLimited === false ? 0 : 1}::integer, ${input.createdTime}::bigint) as outcome`.execute(
    db,
  );
  return result.rows[0]!.outcome;
}
