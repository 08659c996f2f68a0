import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

/** Any user's task by id (for the lifecycle, never for answering a client: see findTaskForUser). */
export async function findTaskById(db: Kysely<Database>, taskId: string): Promise<TaskRecord | null> {
  const row = await db.selectFrom("tasks").selectAll().where("id", "=", taskId).executeTakeFirst();
  return row === undefined ? null : mapTaskRow(row);
}
