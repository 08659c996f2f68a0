import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/**
 * Marks a finished task's callback as pending when nothing has been decided for it yet (a task the terminal
 * compare-and-swap finished without marking it: the crash-path sweep's tasks). A compare-and-swap on
 * `callback_state is null`, so a callback is armed once however many sweeps see the task.
 */
export async function armTaskCallback(db: Kysely<Database>, taskId: string): Promise<boolean> {
  const result = await db
    .updateTable("tasks")
    .set({ callback_state: "pending", callback_next_at: 0 })
    .where("id", "=", taskId)
    .where("status", "in", ["completed", "failed"])
    .where("callback_state", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
