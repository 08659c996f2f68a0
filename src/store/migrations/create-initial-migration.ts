import type { CreateTableBuilder, Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

function addIdColumn<Table extends string>(
  table: CreateTableBuilder<Table, never>,
  dialect: DatabaseDialect,
): CreateTableBuilder<Table, "id"> {
  // SQLite only aliases the rowid (and autoincrements) when the type is exactly INTEGER.
  return dialect === "sqlite"
    ? table.addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
    : table.addColumn("id", "bigint", (column) => column.primaryKey().generatedByDefaultAsIdentity());
}

export function createInitialMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await addIdColumn(db.schema.createTable("users"), dialect)
        .addColumn("username", "text", (column) => column.notNull().unique())
        .addColumn("password_hash", "text", (column) => column.notNull())
        .addColumn("display_name", "text", (column) => column.notNull().defaultTo(""))
        .addColumn("role", "text", (column) => column.notNull().defaultTo("user"))
        .addColumn("group_name", "text", (column) => column.notNull().defaultTo("default"))
        .addColumn("status", "integer", (column) => column.notNull().defaultTo(1))
        .addColumn("access_token_hash", "text", (column) => column.unique())
        .addColumn("access_token_encrypted", "text")
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addCheckConstraint("users_role_check", sql`role in ('user', 'admin', 'root')`)
        .execute();

      await addIdColumn(db.schema.createTable("tokens"), dialect)
        .addColumn("user_id", "bigint", (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("key_hash", "text", (column) => column.notNull().unique())
        .addColumn("key_encrypted", "text", (column) => column.notNull())
        .addColumn("status", "integer", (column) => column.notNull().defaultTo(1))
        .addColumn("remain_quota", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("used_quota", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("unlimited_quota", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("model_limits_enabled", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("model_limits", "text", (column) => column.notNull().defaultTo(""))
        .addColumn("allow_ips", "text", (column) => column.notNull().defaultTo(""))
        .addColumn("group_name", "text", (column) => column.notNull().defaultTo(""))
        .addColumn("cross_group_retry", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("expired_time", "bigint", (column) => column.notNull().defaultTo(-1))
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addColumn("accessed_time", "bigint", (column) => column.notNull().defaultTo(0))
        // The balance may never go negative, whatever a caller computes.
        .addCheckConstraint("tokens_remain_quota_check", sql`remain_quota >= 0`)
        .execute();
      await db.schema.createIndex("tokens_user_id_index").on("tokens").column("user_id").execute();

      await addIdColumn(db.schema.createTable("channels"), dialect)
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("base_url", "text", (column) => column.notNull())
        .addColumn("keys_encrypted", "text", (column) => column.notNull())
        .addColumn("models", "text", (column) => column.notNull().defaultTo("[]"))
        .addColumn("model_mapping", "text", (column) => column.notNull().defaultTo("{}"))
        .addColumn("groups", "text", (column) => column.notNull().defaultTo('["default"]'))
        .addColumn("priority", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("weight", "bigint", (column) => column.notNull().defaultTo(1))
        .addColumn("enabled", "integer", (column) => column.notNull().defaultTo(1))
        .addColumn("source", "text", (column) => column.notNull().defaultTo("api"))
        .addColumn("settings", "text", (column) => column.notNull().defaultTo("{}"))
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addUniqueConstraint("channels_source_name_unique", ["source", "name"])
        .addCheckConstraint("channels_source_check", sql`source in ('config', 'api')`)
        .execute();

      await db.schema
        .createTable("quota_reservations")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("token_id", "bigint", (column) => column.notNull())
        .addColumn("user_id", "bigint", (column) => column.notNull())
        .addColumn("reserved", "bigint", (column) => column.notNull())
        .addColumn("settled", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("actual", "bigint")
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addColumn("settled_time", "bigint")
        .execute();
      // Crash recovery scans for old unsettled rows.
      await db.schema
        .createIndex("quota_reservations_settled_created_time_index")
        .on("quota_reservations")
        .columns(["settled", "created_time"])
        .execute();

      await addIdColumn(db.schema.createTable("usage_logs"), dialect)
        .addColumn("user_id", "bigint", (column) => column.notNull())
        .addColumn("token_id", "bigint", (column) => column.notNull())
        .addColumn("token_name", "text", (column) => column.notNull())
        .addColumn("model", "text", (column) => column.notNull())
        .addColumn("channel_id", "bigint")
        .addColumn("request_id", "text", (column) => column.notNull())
        .addColumn("is_stream", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("prompt_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("completion_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("cached_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("reasoning_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("quota", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("latency_ms", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("error_message", "text")
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addCheckConstraint("usage_logs_status_check", sql`status in ('success', 'error')`)
        .execute();
      await db.schema
        .createIndex("usage_logs_user_id_created_time_index")
        .on("usage_logs")
        .columns(["user_id", "created_time"])
        .execute();

      await db.schema
        .createTable("tasks")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("user_id", "bigint", (column) => column.notNull())
        .addColumn("token_id", "bigint", (column) => column.notNull())
        .addColumn("channel_id", "bigint")
        .addColumn("model", "text", (column) => column.notNull())
        .addColumn("upstream_task_id", "text")
        .addColumn("status", "text", (column) => column.notNull().defaultTo("queued"))
        .addColumn("progress", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("reservation_id", "text")
        .addColumn("result_url", "text")
        .addColumn("error_code", "text")
        .addColumn("error_message", "text")
        .addColumn("request_body", "text")
        .addColumn("response_body", "text")
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addColumn("updated_time", "bigint", (column) => column.notNull())
        .addColumn("completed_time", "bigint")
        .addCheckConstraint("tasks_status_check", sql`status in ('queued', 'in_progress', 'completed', 'failed')`)
        .execute();
      // The background poller looks for unfinished tasks.
      await db.schema.createIndex("tasks_status_index").on("tasks").column("status").execute();
      await db.schema.createIndex("tasks_user_id_index").on("tasks").column("user_id").execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      for (const table of ["tasks", "usage_logs", "quota_reservations", "channels", "tokens", "users"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
