import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Makes task callbacks durable: where a task's callback stands (`pending` until delivered or given up, then
 * `delivered` or `exhausted`; null for a task without one, and for tasks finished before this migration), how many
 * tries it had, and when the next one is due (epoch milliseconds, which doubles as the claim: a sender pushes it out
 * by a lease while it tries, as the poller does with `next_poll_at`). A restarted or second instance resumes what is
 * pending from these columns, continuing the try count and the backoff.
 */
export function createTaskCallbackStateMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema.alterTable("tasks").addColumn("callback_state", "text").execute();
      await db.schema
        .alterTable("tasks")
        .addColumn("callback_attempts", "integer", (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("tasks")
        .addColumn("callback_next_at", "bigint", (column) => column.notNull().defaultTo(0))
        .execute();
      // The resume sweep's claim: pending callbacks by due time. Partial, so it holds only undelivered ones.
      await db.schema
        .createIndex("tasks_callback_due_index")
        .on("tasks")
        .column("callback_next_at")
        .where(sql.ref("callback_state"), "=", "pending")
        .execute();
    },
    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropIndex("tasks_callback_due_index").execute();
      for (const name of ["callback_next_at", "callback_attempts", "callback_state"])
        await db.schema.alterTable("tasks").dropColumn(name).execute();
    },
  };
}
