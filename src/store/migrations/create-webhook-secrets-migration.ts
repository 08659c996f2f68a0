import type { Kysely, Migration } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * The per-user secret that signs task callbacks (POST /api/user/self/webhook-secret), stored encrypted like keys, and
 * one row per callback delivery attempt, shown on the task. A table of its own for the secret keeps the users row and
 * its readers untouched; one secret per user, so the user id is the key.
 */
export function createWebhookSecretsMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .createTable("user_webhook_secrets")
        .addColumn("user_id", "bigint", (column) => column.primaryKey())
        .addColumn("secret_encrypted", "text", (column) => column.notNull())
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addColumn("updated_time", "bigint", (column) => column.notNull())
        .execute();
      const withId = db.schema.createTable("task_callback_deliveries");
      await (dialect === "sqlite"
        ? withId.addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
        : withId.addColumn("id", "bigint", (column) => column.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn("task_id", "text", (column) => column.notNull())
        .addColumn("attempt", "integer", (column) => column.notNull())
        .addColumn("status_code", "integer")
        .addColumn("error_message", "text")
        .addColumn("succeeded", "integer", (column) => column.notNull())
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("task_callback_deliveries_task_id_index")
        .on("task_callback_deliveries")
        .column("task_id")
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropTable("task_callback_deliveries").execute();
      await db.schema.dropTable("user_webhook_secrets").execute();
    },
  };
}
