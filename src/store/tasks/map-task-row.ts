import type { Selectable } from "kysely";
import type { TasksTable } from "../database-schema.js";
import type { TaskRecord } from "./task-record.js";

export function mapTaskRow(row: Selectable<TasksTable>): TaskRecord {
  return {
    id: row.id,
    userId: Number(row.user_id),
    tokenId: Number(row.token_id),
    tokenName: row.token_name,
    channelId: row.channel_id === null ? null : Number(row.channel_id),
    keyIndex: Number(row.key_index),
    model: row.model,
    upstreamModel: row.upstream_model,
    upstreamTaskId: row.upstream_task_id,
    status: row.status,
    upstreamStatus: row.upstream_status,
    progress: Number(row.progress),
    reservationId: row.reservation_id,
    reservedQuota: Number(row.reserved_quota),
    unlimitedQuota: Number(row.unlimited_quota) === 1,
    billingGroup: row.billing_group,
    quota: row.quota === null ? null : Number(row.quota),
    billedSeconds: row.billed_seconds === null ? null : Number(row.billed_seconds),
    resultUrl: row.result_url,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    traceId: row.trace_id,
    idempotencyKey: row.idempotency_key,
    requestHash: row.request_hash,
    requestBody: row.request_body === null ? null : (JSON.parse(row.request_body) as unknown),
    responseBody: row.response_body === null ? null : (JSON.parse(row.response_body) as unknown),
    createdTime: Number(row.created_time),
    updatedTime: Number(row.updated_time),
    completedTime: row.completed_time === null ? null : Number(row.completed_time),
    nextPollAt: Number(row.next_poll_at),
    pollFailures: Number(row.poll_failures),
    callbackState: row.callback_state ?? null,
    callbackAttempts: Number(row.callback_attempts ?? 0),
    callbackNextAt: Number(row.callback_next_at ?? 0),
  };
}
