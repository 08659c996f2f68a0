import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { convertTaskPatchToColumns } from "./convert-task-patch-to-columns.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskPatch } from "./task-patch.js";
import type { TaskRecord, TaskStatus } from "./task-record.js";

export type { TaskPatch } from "./task-patch.js";

export interface UpdateTaskOptions {
  /**
   * Update only while the task is in one of these states: the compare-and-swap of a terminal transition
   * (`… where status = <old>`), so a task finishes once however many pollers, instances and client queries race.
   */
  onlyFromStatuses?: readonly TaskStatus[];
}

/** Returns the updated task, or null when no task matched. */
export async function updateTask(
  db: Kysely<Database>,
  taskId: string,
  patch: TaskPatch,
  options: UpdateTaskOptions = {},
): Promise<TaskRecord | null> {
  const changes = convertTaskPatchToColumns(patch);
  let query = db.updateTable("tasks").set(changes).where("id", "=", taskId);
  if (options.onlyFromStatuses !== undefined) {
    if (options.onlyFromStatuses.length === 0) {
      return null;
    }
    query = query.where("status", "in", [...options.onlyFromStatuses]);
  }
  const row = await query.returningAll().executeTakeFirst();
  return row === undefined ? null : mapTaskRow(row);
}
