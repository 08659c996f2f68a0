import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { TaskCallbackState } from "../tasks/task-record.js";

export interface TaskCallbackProgress {
  taskId: string;
  /** The tries the claim saw; the write applies only if no one else has counted a try since. */
  fromAttempts: number;
  attempts: number;
  state: TaskCallbackState;
  /** epoch milliseconds when the next try is due (for a pending callback), or when the claim is given back */
  nextAt: number;
}

/**
 * Writes the outcome of one callback try (or gives a claim back, with the same count). A compare-and-swap on the
 * count and the pending state: a sender whose lease ran out while it tried cannot overwrite the progress of the one
 * that took over. False when it did not apply.
 */
export async function saveTaskCallbackProgress(db: Kysely<Database>, progress: TaskCallbackProgress): Promise<boolean> {
  const result = await db
    .updateTable("tasks")
    .set({ callback_state: progress.state, callback_attempts: progress.attempts, callback_next_at: progress.nextAt })
    .where("id", "=", progress.taskId)
    .where("callback_state", "=", "pending")
    .where("callback_attempts", "=", progress.fromAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
