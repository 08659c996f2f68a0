import type { Kysely, Updateable } from "kysely";
import type { Database, TasksTable } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord, TaskStatus } from "./task-record.js";

export interface TaskPatch {
  channelId?: number | null;
  upstreamTaskId?: string | null;
  status?: TaskStatus;
  progress?: number;
  resultUrl?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  responseBody?: unknown;
  completedTime?: number | null;
  updatedTime: number;
}

export interface UpdateTaskOptions {
  /**
   * Update only while the task is in one of these states. Pass ['queued', 'in_progress'] when
   * moving to a terminal state, so a task finishes once even if two pollers race.
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
  const changes: Updateable<TasksTable> = { updated_time: patch.updatedTime };
  if (patch.channelId !== undefined) changes.channel_id = patch.channelId;
  if (patch.upstreamTaskId !== undefined) changes.upstream_task_id = patch.upstreamTaskId;
  if (patch.status !== undefined) changes.status = patch.status;
  if (patch.progress !== undefined) changes.progress = patch.progress;
  if (patch.resultUrl !== undefined) changes.result_url = patch.resultUrl;
  if (patch.errorCode !== undefined) changes.error_code = patch.errorCode;
  if (patch.errorMessage !== undefined) changes.error_message = patch.errorMessage;
  if (patch.responseBody !== undefined) changes.response_body = JSON.stringify(patch.responseBody);
  if (patch.completedTime !== undefined) changes.completed_time = patch.completedTime;

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
