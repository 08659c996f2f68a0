import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";
import { mapReservationRow } from "./map-reservation-row.js";
import type { ReservationRecord } from "./reservation-record.js";

export interface InsertReservationInput {
  /** the request id */
  id: string;
  tokenId: number;
  userId: number;
  reserved: number;
  createdTime: number;
}

/** The ledger row of one request's reservation; a repeated request id fails on the primary key. */
export async function insertReservation(
  db: Kysely<Database>,
  input: InsertReservationInput,
): Promise<ReservationRecord> {
  assertQuotaAmount("reserved", input.reserved);
  const row = await db
    .insertInto("quota_reservations")
    .values({
      id: input.id,
      token_id: input.tokenId,
      user_id: input.userId,
      reserved: input.reserved,
      settled: 0,
      actual: null,
      created_time: input.createdTime,
      settled_time: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapReservationRow(row);
}
