import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * The usage log learns the cache split and the billing group, and gets hourly rollups beside it.
 *
 * - `cache_write_tokens`: prompt tokens written to the provider's prompt cache (billed at their own price), beside
 *   `cached_tokens` (reads). `group_name`: the group the request was billed under, so logs and rollups filter by it.
 * - `usage_rollups`: one row per UTC hour, user, token, model, channel and group, summing what the usage rows of
 *   that hour say. It is written in the same commit as each usage row, so statistics read it instead of scanning the
 *   log; the rows already logged are summed in here, so the rollups equal the log from the start. A request that
 *   failed before a channel was chosen is filed under channel 0 (a key column cannot be null and still be unique).
 * - Indexes for the administrators' filters and for retention, which deletes the oldest rows by time.
 */
export function createUsageRollupsMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .alterTable("usage_logs")
        .addColumn("cache_write_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("usage_logs")
        .addColumn("group_name", "text", (column) => column.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("usage_logs_created_time_index").on("usage_logs").column("created_time").execute();
      await db.schema.createIndex("usage_logs_request_id_index").on("usage_logs").column("request_id").execute();

      await db.schema
        .createTable("usage_rollups")
        .addColumn("hour", "bigint", (column) => column.notNull())
        .addColumn("user_id", "bigint", (column) => column.notNull())
        .addColumn("token_id", "bigint", (column) => column.notNull())
        .addColumn("model", "text", (column) => column.notNull())
        .addColumn("channel_id", "bigint", (column) => column.notNull())
        .addColumn("group_name", "text", (column) => column.notNull())
        .addColumn("requests", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("errors", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("prompt_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("completion_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("cached_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("cache_write_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("quota", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("latency_ms", "bigint", (column) => column.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("usage_rollups_primary_key", [
          "hour",
          "user_id",
          "token_id",
          "model",
          "channel_id",
          "group_name",
        ])
        .execute();
      // A user's statistics (the console's default view) read their own hours only.
      await db.schema
        .createIndex("usage_rollups_user_id_hour_index")
        .on("usage_rollups")
        .columns(["user_id", "hour"])
        .execute();

      await sql`
        insert into usage_rollups (hour, user_id, token_id, model, channel_id, group_name, requests, errors,
          prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
        select created_time - (created_time % 3600), user_id, token_id, model, coalesce(channel_id, 0), group_name,
          count(*), sum(case when status = 'error' then 1 else 0 end), sum(prompt_tokens), sum(completion_tokens),
          sum(cached_tokens), sum(cache_write_tokens), sum(quota), sum(latency_ms)
        from usage_logs
        group by created_time - (created_time % 3600), user_id, token_id, model, coalesce(channel_id, 0), group_name
      `.execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropTable("usage_rollups").execute();
      await db.schema.dropIndex("usage_logs_request_id_index").execute();
      await db.schema.dropIndex("usage_logs_created_time_index").execute();
      await db.schema.alterTable("usage_logs").dropColumn("group_name").execute();
      await db.schema.alterTable("usage_logs").dropColumn("cache_write_tokens").execute();
    },
  };
}
