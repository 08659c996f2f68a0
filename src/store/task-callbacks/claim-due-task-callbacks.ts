import type { Kysely } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import type { Database } from "../database-schema.js";
import { mapTaskRow } from "../tasks/map-task-row.js";
import type { TaskRecord } from "../tasks/task-record.js";

export interface ClaimDueTaskCallbacksInput {
  /** epoch milliseconds */
  nowMs: number;
  /** How long the claim keeps other senders away. */
  leaseMs: number;
  limit: number;
}

/**
 * Claims up to `limit` pending callbacks whose next try is due, oldest due first, in one statement, as claimDueTasks
 * does for polls: on PostgreSQL the candidates are locked with `FOR UPDATE SKIP LOCKED`, so two instances resuming at
 * once take disjoint sets; SQLite has one writer and the single UPDATE is atomic there.
 */
export async function claimDueTaskCallbacks(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  input: ClaimDueTaskCallbacksInput,
): Promise<TaskRecord[]> {
  const rows = await db
    .updateTable("tasks")
    .set({ callback_next_at: input.nowMs + input.leaseMs })
    .where("id", "in", (builder) => {
      const candidates = builder
        .selectFrom("tasks")
        .select("id")
        .where("callback_state", "=", "pending")
        .where("callback_next_at", "<=", input.nowMs)
        .orderBy("callback_next_at", "asc")
        .limit(input.limit);
      return dialect === "postgres" ? candidates.forUpdate().skipLocked() : candidates;
    })
    .where("callback_state", "=", "pending")
    .where("callback_next_at", "<=", input.nowMs)
    .returningAll()
    .execute();
  return rows.map(mapTaskRow);
}
