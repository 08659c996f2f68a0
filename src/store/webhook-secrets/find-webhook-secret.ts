import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** The user's signing secret as stored (encrypted), or undefined when the user never created one. */
export async function findWebhookSecret(db: Kysely<Database>, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom("user_webhook_secrets")
    .select("secret_encrypted")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.secret_encrypted;
}
