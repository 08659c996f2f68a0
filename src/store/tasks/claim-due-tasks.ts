import type { Kysely } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

export interface ClaimDueTasksInput {
  /** epoch milliseconds */
  nowMs: number;
  /** How long the claim keeps other pollers away: the claimed tasks are due again only after it. */
  leaseMs: number;
  limit: number;
}

/**
 * Claims up to `limit` unfinished tasks that are due, oldest due first, in one statement: their `next_poll_at`
 * moves to the end of the lease, so no other poller (of this or another instance) takes them until this one has
 * written their next due time or the lease ran out (a poller that died). On PostgreSQL the candidates are locked
 * with `FOR UPDATE SKIP LOCKED`, so two instances claiming at once take disjoint batches instead of waiting on
 * each other; SQLite has one writer, and the single UPDATE is atomic there.
 */
export async function claimDueTasks(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  input: ClaimDueTasksInput,
): Promise<TaskRecord[]> {
  const rows = await db
    .updateTable("tasks")
    .set({ next_poll_at: input.nowMs + input.leaseMs })
    .where("id", "in", (builder) => {
      const candidates = builder
        .selectFrom("tasks")
        .select("id")
        .where("status", "in", ["queued", "in_progress"])
        .where("next_poll_at", "<=", input.nowMs)
        .orderBy("next_poll_at", "asc")
        .limit(input.limit);
      return dialect === "postgres" ? candidates.forUpdate().skipLocked() : candidates;
    })
    .where("status", "in", ["queued", "in_progress"])
    .where("next_poll_at", "<=", input.nowMs)
    .returningAll()
    .execute();
  return rows.map(mapTaskRow);
}
