import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapReservationRow } from "./map-reservation-row.js";
import type { ReservationRecord } from "./reservation-record.js";

/**
 * Reservations left unsettled since before `createdBefore` (Unix seconds), oldest first: after
 * a crash these are refunded or settled by the recovery job. Reservations handed to a task are left to the task.
 */
export async function findUnsettledReservationsOlderThan(
  db: Kysely<Database>,
  createdBefore: number,
  limit = 1000,
): Promise<ReservationRecord[]> {
  const rows = await db
    .selectFrom("quota_reservations")
    .selectAll()
    .where("settled", "=", 0)
    .where("created_time", "<", createdBefore)
    // A video task holds its reservation for as long as it runs; the task lifecycle settles or refunds it.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom("tasks").select("tasks.id").whereRef("tasks.reservation_id", "=", "quota_reservations.id")),
      ),
    )
    .orderBy("created_time", "asc")
    .orderBy("id", "asc")
    .limit(limit)
    .execute();
  return rows.map(mapReservationRow);
}
