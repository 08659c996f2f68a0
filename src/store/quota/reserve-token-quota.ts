import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";

/**
 * Takes `amount` from the token's balance in one conditional statement, so concurrent
 * requests can never overdraw it. Returns the new remaining quota, or null when the balance
 * cannot cover the amount (or the token does not exist). Unlimited tokens are the caller's
 * concern: it does not reserve for them.
 */
export async function reserveTokenQuota(db: Kysely<Database>, tokenId: number, amount: number): Promise<number | null> {
  assertQuotaAmount("amount", amount);
  const row = await db
    .updateTable("tokens")
    .set((expression) => ({ remain_quota: expression("remain_quota", "-", amount) }))
    .where("id", "=", tokenId)
    .where("remain_quota", ">=", amount)
    .returning("remain_quota")
    .executeTakeFirst();
  return row === undefined ? null : row.remain_quota;
}
