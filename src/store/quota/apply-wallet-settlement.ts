import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";

export interface WalletSettlement {
  userId: number;
  /** reserved − actual when the reservation held the wallet; 0 when it did not (an unlimited wallet) */
  refund: number;
  actual: number;
}

/**
 * Applies a settled reservation to its owner's wallet in one statement, as applyTokenSettlement does to the token:
 * the wallet never goes below zero (an overrun it cannot cover is not taken), and `used_quota` counts the full cost
 * whether the wallet is limited or not. Runs after the token's update, the order every statement takes the two rows
 * in.
 */
export async function applyWalletSettlement(db: Kysely<Database>, settlement: WalletSettlement): Promise<void> {
  assertQuotaAmount("actual", settlement.actual);
  if (!Number.isSafeInteger(settlement.refund)) {
    throw new RangeError(`refund must be an integer, got ${settlement.refund}`);
  }
  const refund = settlement.refund;
  await db
    .updateTable("users")
    .set((expression) => ({
      quota: sql<number>`case when quota + ${refund} < 0 then 0 else quota + ${refund} end`,
      used_quota: expression("used_quota", "+", settlement.actual),
    }))
    .where("id", "=", settlement.userId)
    .execute();
}
