import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import { mapQuotaChangeRow } from "./map-quota-change-row.js";
import type { QuotaChangeRecord } from "./quota-change-record.js";

/** One page of a user's wallet changes, newest first, with the total. */
export async function listQuotaChangesForUser(
  db: Kysely<Database>,
  userId: number,
  window: PageWindow,
): Promise<{ changes: QuotaChangeRecord[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db
      .selectFrom("quota_ledger")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .limit(window.limit)
      .offset(window.offset)
      .execute(),
    db
      .selectFrom("quota_ledger")
      .select((expression) => expression.fn.countAll<number | string>().as("total"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { changes: rows.map(mapQuotaChangeRow), total: Number(counted.total) };
}
