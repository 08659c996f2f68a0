import type BetterSqlite3 from "better-sqlite3";
import { type Selectable, sql } from "kysely";
import type { TasksTable } from "../database-schema.js";
import type { GatewayDatabase } from "../gateway-database.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord } from "./task-record.js";

export interface ClaimDueTasksInput {
  /** epoch milliseconds */
  nowMs: number;
  /** How long the claim keeps other pollers away: the claimed tasks are due again only after it. */
  leaseMs: number;
  limit: number;
}

// SQLite: by hand, because its planner, given `status in (?, ?)` as Kysely binds it, took tasks_status_index and
// read and sorted the whole row of every unfinished task (~6 ms per claim with 10,000 due). The literal statuses
// match the partial tasks_due_index's own predicate, and INDEXED BY holds the planner to it: the claim walks the
// due tasks in next_poll_at order and stops at the limit. The outer update looks the candidates up by id (a
// repeated status/next_poll_at check there made the planner walk every due task again; the statement runs alone,
// so nothing can change between the two).
const sqliteClaim = `update tasks set next_poll_at = ? where id in (
  select id from tasks indexed by tasks_due_index
  where status in ('queued', 'in_progress') and next_poll_at <= ? order by next_poll_at limit ?
) returning *`;
const sqliteClaimStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

/**
 * Claims up to `limit` unfinished tasks that are due, oldest due first, in one statement: their `next_poll_at`
 * moves to the end of the lease, so no other poller (of this or another instance) takes them until this one has
 * written their next due time or the lease ran out (a poller that died). On PostgreSQL the candidates are locked
 * with `FOR UPDATE SKIP LOCKED`, so two instances claiming at once take disjoint batches instead of waiting on
 * each other, and checked again once locked. SQLite has one writer, and the single UPDATE is atomic there; it
 * runs in the commit window (create-commit-window.ts), committed with the window's other writes: a claim lost to
 * a crash only makes its tasks due again.
 */
export async function claimDueTasks(
  database: Pick<GatewayDatabase, "db" | "dialect" | "sqliteConnection" | "sqliteCommitWindow">,
  input: ClaimDueTasksInput,
): Promise<TaskRecord[]> {
  const { sqliteConnection: connection, sqliteCommitWindow: commitWindow } = database;
  if (connection !== undefined && commitWindow !== undefined) {
    let statement = sqliteClaimStatements.get(connection);
    if (statement === undefined) {
      statement = connection.prepare(sqliteClaim);
      sqliteClaimStatements.set(connection, statement);
    }
    const claim = statement;
    const rows = await commitWindow.run(
      () => claim.all(input.nowMs + input.leaseMs, input.nowMs, input.limit) as Array<Selectable<TasksTable>>,
      { savepoint: false },
    );
    return rows.map(mapTaskRow);
  }
  // PostgreSQL: `id = any(array(…))` runs the candidates' subquery once. As `id in (…)` the planner may make it the
  // inner side of a semi join and run it again for every outer row, each run skipping what the earlier ones locked:
  // one claim with limit 8 took all 60 due tasks, more than the poller has slots for.
  const candidates = database.db
    .selectFrom("tasks")
    .select("id")
    .where("status", "in", ["queued", "in_progress"])
    .where("next_poll_at", "<=", input.nowMs)
    .orderBy("next_poll_at", "asc")
    .limit(input.limit)
    .forUpdate()
    .skipLocked();
  const rows = await database.db
    .updateTable("tasks")
    .set({ next_poll_at: input.nowMs + input.leaseMs })
    .where(sql<boolean>`id = any(array(${candidates}))`)
    .where("status", "in", ["queued", "in_progress"])
    .where("next_poll_at", "<=", input.nowMs)
    .returningAll()
    .execute();
  return rows.map(mapTaskRow);
}
