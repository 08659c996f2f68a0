import { type Kysely, sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";

/**
 * used_quota += actual on a token and its owner, for a request that held nothing (an unlimited token of an unlimited
 * wallet): no balance moves. On PostgreSQL one statement (a writable CTE, token first), so the hot path of an
 * unlimited deployment pays one round trip as before wallets.
 */
export async function chargeUnheldUsage(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  input: { tokenId: number; userId: number; actual: number },
): Promise<void> {
  assertQuotaAmount("actual", input.actual);
  if (dialect === "postgres") {
    await sql`
      with token as (update tokens set used_quota = used_quota + ${input.actual} where id = ${input.tokenId} returning id)
      update users set used_quota = used_quota + ${input.actual}
      where id = ${input.userId} and (select count(*) from token) >= 0`.execute(db);
    return;
  }
  await db.transaction().execute(async (transaction) => {
    await transaction
      .updateTable("tokens")
      .set((expression) => ({ used_quota: expression("used_quota", "+", input.actual) }))
      .where("id", "=", input.tokenId)
      .execute();
    await transaction
      .updateTable("users")
      .set((expression) => ({ used_quota: expression("used_quota", "+", input.actual) }))
      .where("id", "=", input.userId)
      .execute();
  });
}
