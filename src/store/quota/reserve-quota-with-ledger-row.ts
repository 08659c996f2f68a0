import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";
import type { InsertReservationInput } from "./insert-reservation.js";

/**
 * PostgreSQL: takes the amount from the token's balance and writes the reservation's ledger row in one statement
 * (a writable CTE), so a process killed at any point leaves both or neither: a hold without its row could never be
 * found and refunded by recovery. True when reserved; false when the balance cannot cover it. A repeated request id
 * fails on the primary key and takes nothing. (SQLite has no writable CTEs; its ledger does the same in its window.)
 */
export async function reserveQuotaWithLedgerRow(db: Kysely<Database>, input: InsertReservationInput): Promise<boolean> {
  assertQuotaAmount("reserved", input.reserved);
  const result = await sql<{ id: string }>`
    with taken as (
      update tokens set remain_quota = remain_quota - ${input.reserved}
      where id = ${input.tokenId} and remain_quota >= ${input.reserved}
      returning id
    )
    insert into quota_reservations (id, token_id, user_id, reserved, settled, actual, created_time, settled_time)
    select ${input.id}, taken.id, ${input.userId}, ${input.reserved}, 0, null, ${input.createdTime}, null from taken
    returning id`.execute(db);
  return result.rows.length === 1;
}
