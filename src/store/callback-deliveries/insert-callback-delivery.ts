import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { CallbackDeliveryRecord } from "./callback-delivery-record.js";

export async function insertCallbackDelivery(db: Kysely<Database>, record: CallbackDeliveryRecord): Promise<void> {
  await db
    .insertInto("task_callback_deliveries")
    .values({
      task_id: record.taskId,
      attempt: record.attempt,
      status_code: record.statusCode,
      error_message: record.errorMessage,
      succeeded: record.succeeded ? 1 : 0,
      created_time: record.createdTime,
    })
    .execute();
}
