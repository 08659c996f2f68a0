import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

/**
 * Claims one unfinished task of `userId` for a refresh when it is due (its last poll is older than the poll
 * interval), the same way the poller claims a batch. Null when it is not due, finished, claimed by someone else,
 * or not this user's: the caller then answers from the row as it is.
 */
export async function claimTaskForRefresh(
  db: Kysely<Database>,
  input: { taskId: string; userId: number; nowMs: number; leaseMs: number },
): Promise<TaskRecord | null> {
  const row = await db
    .updateTable("tasks")
    .set({ next_poll_at: input.nowMs + input.leaseMs })
    .where("id", "=", input.taskId)
    .where("user_id", "=", input.userId)
    .where("status", "in", ["queued", "in_progress"])
    .where("next_poll_at", "<=", input.nowMs)
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? null : mapTaskRow(row);
}
