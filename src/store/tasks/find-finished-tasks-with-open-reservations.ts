import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

/**
 * Finished tasks whose reservation is still held: the process that won the terminal transition stopped before it
 * settled. Their final cost is on the row, so settling them again is safe (the reservation settles once).
 */
export async function findFinishedTasksWithOpenReservations(
  db: Kysely<Database>,
  limit: number,
): Promise<TaskRecord[]> {
  const rows = await db
    .selectFrom("tasks")
    .innerJoin("quota_reservations", "quota_reservations.id", "tasks.reservation_id")
    .selectAll("tasks")
    .where("tasks.status", "in", ["completed", "failed"])
    .where("tasks.quota", "is not", null)
    .where("quota_reservations.settled", "=", 0)
    .limit(limit)
    .execute();
  return rows.map(mapTaskRow);
}
