import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapQuotaChangeRow } from "./map-quota-change-row.js";
import type { QuotaChangeRecord } from "./quota-change-record.js";

export interface AdjustWalletInput {
  userId: number;
  /** signed units */
  delta: number;
  source: QuotaChangeRecord["source"];
  reason: string;
  actorUserId: number | null;
  redemptionCodeId: number | null;
  createdTime: number;
}

/**
 * Moves a wallet by `delta` and writes its ledger row, together. The move is one conditional update, so concurrent
 * changes and requests never take the wallet below zero: null when the user does not exist or a withdrawal is larger
 * than the wallet holds (nothing changes then). Run it inside the caller's transaction when more must commit with it.
 */
export async function adjustWallet(db: Kysely<Database>, input: AdjustWalletInput): Promise<QuotaChangeRecord | null> {
  if (!Number.isSafeInteger(input.delta)) throw new RangeError(`delta must be an integer, got ${input.delta}`);
  const moved = await db
    .updateTable("users")
    .set((expression) => ({ quota: expression("quota", "+", input.delta) }))
    .where("id", "=", input.userId)
    .where((expression) => expression(expression("quota", "+", input.delta), ">=", 0))
    .returning("quota")
    .executeTakeFirst();
  if (moved === undefined) return null;
  const row = await db
    .insertInto("quota_ledger")
    .values({
      user_id: input.userId,
      delta: input.delta,
      balance_after: moved.quota,
      source: input.source,
      reason: input.reason,
      actor_user_id: input.actorUserId,
      redemption_code_id: input.redemptionCodeId,
      created_time: input.createdTime,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapQuotaChangeRow(row);
}
