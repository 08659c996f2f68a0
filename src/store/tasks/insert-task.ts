import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord, TaskStatus } from "./task-record.js";

export interface InsertTaskInput {
  id: string;
  userId: number;
  tokenId: number;
  tokenName?: string;
  channelId?: number | null;
  keyIndex?: number;
  model: string;
  upstreamModel?: string | null;
  upstreamTaskId?: string | null;
  /** default queued */
  status?: TaskStatus;
  upstreamStatus?: string | null;
  progress?: number;
  reservationId?: string | null;
  reservedQuota?: number;
  unlimitedQuota?: boolean;
  billingGroup?: string;
  traceId?: string | null;
  idempotencyKey?: string | null;
  requestHash?: string | null;
  requestBody?: unknown;
  responseBody?: unknown;
  createdTime: number;
  /** epoch milliseconds; 0 (the default) is due at once */
  nextPollAt?: number;
}

/** Throws a unique violation when the user already has a task under `idempotencyKey`. */
export async function insertTask(db: Kysely<Database>, input: InsertTaskInput): Promise<TaskRecord> {
  const row = await db
    .insertInto("tasks")
    .values({
      id: input.id,
      user_id: input.userId,
      token_id: input.tokenId,
      token_name: input.tokenName ?? "",
      channel_id: input.channelId ?? null,
      key_index: input.keyIndex ?? 0,
      model: input.model,
      upstream_model: input.upstreamModel ?? null,
      upstream_task_id: input.upstreamTaskId ?? null,
      status: input.status ?? "queued",
      upstream_status: input.upstreamStatus ?? null,
      progress: input.progress ?? 0,
      reservation_id: input.reservationId ?? null,
      reserved_quota: input.reservedQuota ?? 0,
      unlimited_quota: input.unlimitedQuota ? 1 : 0,
      billing_group: input.billingGroup ?? "default",
      quota: null,
      billed_seconds: null,
      result_url: null,
      error_code: null,
      error_message: null,
      trace_id: input.traceId ?? null,
      idempotency_key: input.idempotencyKey ?? null,
      request_hash: input.requestHash ?? null,
      request_body: input.requestBody === undefined ? null : JSON.stringify(input.requestBody),
      response_body: input.responseBody === undefined ? null : JSON.stringify(input.responseBody),
      created_time: input.createdTime,
      updated_time: input.createdTime,
      completed_time: null,
      next_poll_at: input.nextPollAt ?? 0,
      poll_failures: 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapTaskRow(row);
}
