import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

/** The user's task submitted under `idempotencyKey`, whatever its age (the caller decides what is too old). */
export async function findTaskByIdempotencyKey(
  db: Kysely<Database>,
  userId: number,
  idempotencyKey: string,
): Promise<TaskRecord | null> {
  const row = await db
    .selectFrom("tasks")
    .selectAll()
    .where("user_id", "=", userId)
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
  return row === undefined ? null : mapTaskRow(row);
}
