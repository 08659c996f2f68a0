import type { Kysely, Migration } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Channel health that outlives a process and is shared by every instance: a row per channel (key_index -1) or key
 * taken out of routing, automatically (a credential or account the upstream refuses) or by an administrator, and the
 * outcome of each channel's last test. Tables of their own keep the channels row and its many readers untouched;
 * a healthy channel has no health row at all.
 */
export function createChannelHealthMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .createTable("channel_health")
        .addColumn("channel_id", "bigint", (column) => column.notNull())
        .addColumn("key_index", "integer", (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("reason", "text", (column) => column.notNull())
        .addColumn("upstream_status", "integer")
        .addColumn("changed_time", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint("channel_health_primary_key", ["channel_id", "key_index"])
        .execute();
      await db.schema
        .createTable("channel_last_tests")
        .addColumn("channel_id", "bigint", (column) => column.primaryKey())
        .addColumn("success", "integer", (column) => column.notNull())
        .addColumn("latency_ms", "integer", (column) => column.notNull())
        .addColumn("model", "text", (column) => column.notNull())
        .addColumn("message", "text", (column) => column.notNull())
        .addColumn("tested_time", "bigint", (column) => column.notNull())
        .execute();
      // One row (id 1) when an administrator changed the rules through the API; the config file's rules otherwise.
      await db.schema
        .createTable("channel_health_rules")
        .addColumn("id", "integer", (column) => column.primaryKey())
        .addColumn("disable_after_failures", "integer", (column) => column.notNull())
        .addColumn("failure_window_seconds", "integer", (column) => column.notNull())
        .addColumn("probe_interval_seconds", "integer", (column) => column.notNull())
        .addColumn("updated_time", "bigint", (column) => column.notNull())
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropTable("channel_health_rules").execute();
      await db.schema.dropTable("channel_last_tests").execute();
      await db.schema.dropTable("channel_health").execute();
    },
  };
}
