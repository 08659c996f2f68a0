import type BetterSqlite3 from "better-sqlite3";
import type { GatewayDatabase } from "../gateway-database.js";
import { convertTaskPatchToColumns } from "./convert-task-patch-to-columns.js";
import type { TaskPatch } from "./task-patch.js";
import type { TaskRecord } from "./task-record.js";
import { type UpdateTaskOptions, updateTask } from "./update-task.js";

const sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/**
 * `updateTask` for a task this process holds (claimed by a poll): the same statement, conditions and answer (the
 * task as updated, or null when no task matched). On SQLite it runs in the commit window (create-commit-window.ts)
 * instead of forcing the window to commit and then committing alone (two commits per poll were most of a poll's
 * cost), so a terminal transition commits together with its settlement, which waits for that commit; a crash
 * before it loses both, and the task is polled, finished and settled again. The answer there is `task` with the
 * patch applied instead of the row read back: the claim keeps other pollers and refreshes off the row until this
 * write.
 */
export async function updateClaimedTask(
  database: Pick<GatewayDatabase, "db" | "sqliteConnection" | "sqliteCommitWindow">,
  task: TaskRecord,
  patch: TaskPatch,
  options: UpdateTaskOptions = {},
): Promise<TaskRecord | null> {
  const { sqliteConnection: connection, sqliteCommitWindow: commitWindow } = database;
  if (connection === undefined || commitWindow === undefined) return updateTask(database.db, task.id, patch, options);
  if (options.onlyFromStatuses?.length === 0) return null;
  const columns = convertTaskPatchToColumns(patch);
  const names = Object.keys(columns);
  const statuses = options.onlyFromStatuses ?? [];
  const sql = `update tasks set ${names.map((name) => `${name} = ?`).join(", ")} where id = ?${
    statuses.length === 0 ? "" : ` and status in (${statuses.map(() => "?").join(", ")})`
  }`;
  let statements = sqliteStatements.get(connection);
  if (statements === undefined) {
    statements = new Map();
    sqliteStatements.set(connection, statements);
  }
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = connection.prepare(sql);
    statements.set(sql, statement);
  }
  const update = statement;
  const values = [...Object.values(columns), task.id, ...statuses];
  const changed = await commitWindow.run(() => update.run(values).changes === 1, { savepoint: false });
  if (!changed) return null;
  const updated: TaskRecord = { ...task };
  for (const [field, value] of Object.entries(patch)) {
    if (value !== undefined) (updated as unknown as Record<string, unknown>)[field] = value;
  }
  return updated;
}
