import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { canNameStoredRow } from "../storable-text.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

/** Another user's task is reported as not found (null), and so is an id no task can have (canNameStoredRow). */
export async function findTaskForUser(
  db: Kysely<Database>,
  taskId: string,
  userId: number,
): Promise<TaskRecord | null> {
  if (!canNameStoredRow(taskId)) return null;
  const row = await db
    .selectFrom("tasks")
    .selectAll()
    .where("id", "=", taskId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row === undefined ? null : mapTaskRow(row);
}
