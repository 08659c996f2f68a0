import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord, TaskStatus } from "./task-record.js";

export interface InsertTaskInput {
  id: string;
  userId: number;
  tokenId: number;
  channelId?: number | null;
  model: string;
  upstreamTaskId?: string | null;
  /** default queued */
  status?: TaskStatus;
  reservationId?: string | null;
  requestBody?: unknown;
  createdTime: number;
}

export async function insertTask(db: Kysely<Database>, input: InsertTaskInput): Promise<TaskRecord> {
  const row = await db
    .insertInto("tasks")
    .values({
      id: input.id,
      user_id: input.userId,
      token_id: input.tokenId,
      channel_id: input.channelId ?? null,
      model: input.model,
      upstream_task_id: input.upstreamTaskId ?? null,
      status: input.status ?? "queued",
      progress: 0,
      reservation_id: input.reservationId ?? null,
      result_url: null,
      error_code: null,
      error_message: null,
      request_body: input.requestBody === undefined ? null : JSON.stringify(input.requestBody),
      response_body: null,
      created_time: input.createdTime,
      updated_time: input.createdTime,
      completed_time: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapTaskRow(row);
}
