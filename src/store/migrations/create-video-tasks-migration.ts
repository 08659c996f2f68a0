import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * What the asynchronous video lifecycle (src/tasks/) keeps beside the first tasks table: how to reach the upstream
 * task again (key index, upstream model), how to bill it when it ends (group, token name, held amount, the final
 * cost written by the terminal compare-and-swap), when to poll it next (epoch milliseconds, which doubles as the
 * claim: a claimed task is pushed out of reach until its lease ends), and the client's idempotency key.
 */
export function createVideoTasksMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      const columns: Array<[string, "text" | "integer" | "bigint" | "real", string | number | null]> = [
        ["token_name", "text", ""],
        ["billing_group", "text", "default"],
        ["key_index", "integer", 0],
        ["upstream_model", "text", null],
        ["upstream_status", "text", null],
        ["trace_id", "text", null],
        ["idempotency_key", "text", null],
        ["request_hash", "text", null],
        ["reserved_quota", "bigint", 0],
        ["unlimited_quota", "integer", 0],
        ["quota", "bigint", null],
        ["billed_seconds", "real", null],
        ["next_poll_at", "bigint", 0],
        ["poll_failures", "integer", 0],
      ];
      for (const [name, type, fallback] of columns) {
        await db.schema
          .alterTable("tasks")
          .addColumn(name, type, (column) => (fallback === null ? column : column.notNull().defaultTo(fallback)))
          .execute();
      }
      // The poller's claim: due tasks that are not finished, by due time. Partial, so it holds only live tasks.
      await db.schema
        .createIndex("tasks_due_index")
        .on("tasks")
        .column("next_poll_at")
        .where(sql.ref("status"), "in", ["queued", "in_progress"])
        .execute();
      await db.schema
        .createIndex("tasks_user_idempotency_key_index")
        .on("tasks")
        .columns(["user_id", "idempotency_key"])
        .unique()
        .execute();
      // Reservation recovery skips holds a task owns; the settlement sweep joins on it.
      await db.schema.createIndex("tasks_reservation_id_index").on("tasks").column("reservation_id").execute();
    },
    async down(db: AnyDatabase): Promise<void> {
      for (const index of ["tasks_reservation_id_index", "tasks_user_idempotency_key_index", "tasks_due_index"]) {
        await db.schema.dropIndex(index).execute();
      }
      for (const name of [
        "token_name",
        "billing_group",
        "key_index",
        "upstream_model",
        "upstream_status",
        "trace_id",
        "idempotency_key",
        "request_hash",
        "reserved_quota",
        "unlimited_quota",
        "quota",
        "billed_seconds",
        "next_poll_at",
        "poll_failures",
      ]) {
        await db.schema.alterTable("tasks").dropColumn(name).execute();
      }
    },
  };
}
