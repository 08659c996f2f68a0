import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import { mapTaskRow } from "./map-task-row.js";
import type { TaskRecord, TaskStatus } from "./task-record.js";

export interface UserTaskFilter {
  userId: number;
  status?: TaskStatus;
  model?: string;
}

/** One page of a user's tasks, newest first, and how many match across all pages. */
export async function listTasksForUser(
  db: Kysely<Database>,
  filter: UserTaskFilter,
  page: PageWindow,
): Promise<{ tasks: TaskRecord[]; total: number }> {
  let query = db.selectFrom("tasks").where("user_id", "=", filter.userId);
  if (filter.status !== undefined) query = query.where("status", "=", filter.status);
  if (filter.model !== undefined) query = query.where("model", "=", filter.model);
  const [rows, counted] = await Promise.all([
    query
      .selectAll()
      .orderBy("created_time", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((builder) => builder.fn.countAll().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { tasks: rows.map(mapTaskRow), total: Number(counted.count) };
}
