import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";

export interface TokenSettlement {
  tokenId: number;
  /**
   * reserved − actual: positive gives back the unused part of the reservation; negative takes
   * the overrun (when the actual cost exceeded the reservation).
   */
  refund: number;
  actual: number;
}

export interface TokenBalance {
  remainQuota: number;
  usedQuota: number;
  status: number;
}

/**
 * Applies a settled reservation to its token in one statement. An overrun larger than the
 * balance takes the balance to 0, never below: what the balance cannot cover is not billed to
 * the token, though `used_quota` still counts the full actual cost. The token becomes
 * 4 (quota exhausted) when its balance reaches 0, it is not unlimited and it was enabled.
 * Returns the new balance, or null when the token no longer exists.
 */
export async function applyTokenSettlement(
  db: Kysely<Database>,
  settlement: TokenSettlement,
): Promise<TokenBalance | null> {
  assertQuotaAmount("actual", settlement.actual);
  if (!Number.isSafeInteger(settlement.refund)) {
    throw new RangeError(`refund must be an integer, got ${settlement.refund}`);
  }
  const refund = settlement.refund;
  // SET expressions all read the row as it was before the update, in SQLite and PostgreSQL alike.
  const newRemainQuota = sql<number>`case when remain_quota + ${refund} < 0 then 0 else remain_quota + ${refund} end`;
  const row = await db
    .updateTable("tokens")
    .set((expression) => ({
      remain_quota: newRemainQuota,
      used_quota: expression("used_quota", "+", settlement.actual),
      status: sql<number>`case when ${newRemainQuota} = 0 and unlimited_quota = 0 and status = 1 then 4 else status end`,
    }))
    .where("id", "=", settlement.tokenId)
    .returning(["remain_quota", "used_quota", "status"])
    .executeTakeFirst();
  return row === undefined ? null : { remainQuota: row.remain_quota, usedQuota: row.used_quota, status: row.status };
}
