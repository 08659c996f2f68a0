import type { Selectable } from "kysely";
import type { TasksTable } from "../database-schema.js";
import type { TaskRecord } from "./task-record.js";

export function mapTaskRow(row: Selectable<TasksTable>): TaskRecord {
  return {
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    channelId: row.channel_id,
    model: row.model,
    upstreamTaskId: row.upstream_task_id,
    status: row.status,
    progress: row.progress,
    reservationId: row.reservation_id,
    resultUrl: row.result_url,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    requestBody: row.request_body === null ? null : (JSON.parse(row.request_body) as unknown),
    responseBody: row.response_body === null ? null : (JSON.parse(row.response_body) as unknown),
    createdTime: row.created_time,
    updatedTime: row.updated_time,
    completedTime: row.completed_time,
  };
}
