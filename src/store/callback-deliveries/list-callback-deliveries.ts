import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { CallbackDeliveryRecord } from "./callback-delivery-record.js";

/** A task's delivery attempts, first first. */
export async function listCallbackDeliveries(db: Kysely<Database>, taskId: string): Promise<CallbackDeliveryRecord[]> {
  const rows = await db
    .selectFrom("task_callback_deliveries")
    .selectAll()
    .where("task_id", "=", taskId)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    taskId: row.task_id,
    attempt: Number(row.attempt),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    errorMessage: row.error_message,
    succeeded: Number(row.succeeded) === 1,
    createdTime: Number(row.created_time),
  }));
}
