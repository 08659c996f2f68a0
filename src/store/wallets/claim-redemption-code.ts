import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface ClaimedRedemptionCode {
  id: number;
  name: string;
  quota: number;
}

/**
 * Marks an unused, unexpired code redeemed by `userId`, in one conditional update: of any number of concurrent
 * claims, on any number of instances, exactly one gets the code back; the others get null. Run it in the same
 * transaction as the wallet's credit, so a claimed code is never lost uncredited.
 */
export async function claimRedemptionCode(
  db: Kysely<Database>,
  input: { codeHash: string; userId: number; now: number },
): Promise<ClaimedRedemptionCode | null> {
  const row = await db
    .updateTable("redemption_codes")
    .set({ status: "redeemed", redeemed_by: input.userId, redeemed_time: input.now })
    .where("code_hash", "=", input.codeHash)
    .where("status", "=", "unused")
    .where((expression) =>
      expression.or([expression("expires_time", "=", -1), expression("expires_time", ">", input.now)]),
    )
    .returning(["id", "name", "quota"])
    .executeTakeFirst();
  return row === undefined ? null : { id: row.id, name: row.name, quota: row.quota };
}
