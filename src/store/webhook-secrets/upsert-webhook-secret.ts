import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface UpsertWebhookSecretInput {
  userId: number;
  /** already encrypted by the key cipher */
  secretEncrypted: string;
  now: number;
}

/** Creates the user's signing secret or replaces it (rotation): one statement, so two rotations never leave two. */
export async function upsertWebhookSecret(db: Kysely<Database>, input: UpsertWebhookSecretInput): Promise<void> {
  await db
    .insertInto("user_webhook_secrets")
    .values({
      user_id: input.userId,
      secret_encrypted: input.secretEncrypted,
      created_time: input.now,
      updated_time: input.now,
    })
    .onConflict((conflict) =>
      conflict.column("user_id").doUpdateSet({ secret_encrypted: input.secretEncrypted, updated_time: input.now }),
    )
    .execute();
}
