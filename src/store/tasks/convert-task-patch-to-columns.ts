import type { Updateable } from "kysely";
import type { TasksTable } from "../database-schema.js";
import type { TaskPatch } from "./task-patch.js";

/** The columns a patch writes (fields left undefined are left as they are). */
export function convertTaskPatchToColumns(patch: TaskPatch): Updateable<TasksTable> {
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
  return changes;
}
