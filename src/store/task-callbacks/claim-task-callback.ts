import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "../tasks/map-task-row.js";
import type { TaskRecord } from "../tasks/task-record.js";

/**
 * Claims one task's pending callback when its next try is due: `callback_next_at` moves to the end of the lease, so
 * no other sender (of this or another instance) tries it until this one has written the outcome or the lease ran out
 * (a sender that died). Null when it is not due, not pending, or claimed by someone else.
 */
export async function claimTaskCallback(
  db: Kysely<Database>,
  input: { taskId: string; nowMs: number; leaseMs: number },
): Promise<TaskRecord | null> {
  const row = await db
    .updateTable("tasks")
    .set({ callback_next_at: input.nowMs + input.leaseMs })
    .where("id", "=", input.taskId)
    .where("callback_state", "=", "pending")
    .where("callback_next_at", "<=", input.nowMs)
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? null : mapTaskRow(row);
}
