import type { Kysely, Migration } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * The credential and account failures that count toward taking a channel or key out, one row per failure, shared by
 * every instance: counted in one process each, two instances behind a load balancer needed twice the failures the
 * rules name, and N instances N times. Rows older than the rules' window are deleted as new ones come.
 */
export function createChannelCredentialFailuresMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .createTable("channel_credential_failures")
        .addColumn("channel_id", "bigint", (column) => column.notNull())
        .addColumn("key_index", "integer", (column) => column.notNull())
        .addColumn("failed_time", "bigint", (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("channel_credential_failures_slot_time_index")
        .on("channel_credential_failures")
        .columns(["channel_id", "key_index", "failed_time"])
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropTable("channel_credential_failures").execute();
    },
  };
}
