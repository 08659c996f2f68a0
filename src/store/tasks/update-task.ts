import type { Kysely, Updateable } from "kysely";
import type { Database, TasksTable } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskCallbackState, TaskRecord, TaskStatus } from "./task-record.js";

export interface TaskPatch {
  channelId?: number | null;
  upstreamTaskId?: string | null;
  status?: TaskStatus;
  upstreamStatus?: string | null;
  progress?: number;
  resultUrl?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  responseBody?: unknown;
  completedTime?: number | null;
  quota?: number | null;
  billedSeconds?: number | null;
  /** epoch milliseconds */
  nextPollAt?: number;
  pollFailures?: number;
  idempotencyKey?: string | null;
  callbackState?: TaskCallbackState | null;
  /** epoch milliseconds */
  callbackNextAt?: number;
  updatedTime: number;
}

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
  const changes: Updateable<TasksTable> = { updated_time: patch.updatedTime };
  if (patch.channelId !== undefined) changes.channel_id = patch.channelId;
  if (patch.upstreamTaskId !== undefined) changes.upstream_task_id = patch.upstreamTaskId;
  if (patch.status !== undefined) changes.status = patch.status;
  if (patch.upstreamStatus !== undefined) changes.upstream_status = patch.upstreamStatus;
  if (patch.progress !== undefined) changes.progress = patch.progress;
  if (patch.resultUrl !== undefined) changes.result_url = patch.resultUrl;
  if (patch.errorCode !== undefined) changes.error_code = patch.errorCode;
  if (patch.errorMessage !== undefined) changes.error_message = patch.errorMessage;
  if (patch.responseBody !== undefined) changes.response_body = JSON.stringify(patch.responseBody);
  if (patch.completedTime !== undefined) changes.completed_time = patch.completedTime;
  if (patch.quota !== undefined) changes.quota = patch.quota;
  if (patch.billedSeconds !== undefined) changes.billed_seconds = patch.billedSeconds;
  if (patch.nextPollAt !== undefined) changes.next_poll_at = patch.nextPollAt;
  if (patch.pollFailures !== undefined) changes.poll_failures = patch.pollFailures;
  if (patch.idempotencyKey !== undefined) changes.idempotency_key = patch.idempotencyKey;
  if (patch.callbackState !== undefined) changes.callback_state = patch.callbackState;
  if (patch.callbackNextAt !== undefined) changes.callback_next_at = patch.callbackNextAt;
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
