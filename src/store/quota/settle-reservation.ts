import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { assertQuotaAmount } from "./assert-quota-amount.js";
import { mapReservationRow } from "./map-reservation-row.js";
import type { ReservationRecord } from "./reservation-record.js";

export interface SettleReservationInput {
  reservationId: string;
  actual: number;
  settledTime: number;
}

/**
 * The exactly-once guard: marks the reservation settled only if it is not yet, in one
 * statement. Exactly one of any number of concurrent callers gets the row back; the others
 * (and any later caller) get null and must not touch the balance.
 */
export async function settleReservation(
  db: Kysely<Database>,
  input: SettleReservationInput,
): Promise<ReservationRecord | null> {
  assertQuotaAmount("actual", input.actual);
  const row = await db
    .updateTable("quota_reservations")
    .set({ settled: 1, actual: input.actual, settled_time: input.settledTime })
    .where("id", "=", input.reservationId)
    .where("settled", "=", 0)
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? null : mapReservationRow(row);
}
