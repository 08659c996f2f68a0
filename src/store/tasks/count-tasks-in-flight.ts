import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface TasksInFlight {
  queued: number;
  inProgress: number;
  /** Unix seconds of submission of the oldest task in flight; null when none is. */
  oldestCreatedTime: number | null;
}

/** Every user's tasks that have not ended, counted through the status index (finished tasks are never read). */
export async function countTasksInFlight(db: Kysely<Database>): Promise<TasksInFlight> {
  const rows = await db
    .selectFrom("tasks")
    .select((expression) => [
      "status",
      expression.fn.countAll<number>().as("count"),
      expression.fn.min<number>("created_time").as("oldest"),
    ])
    .where("status", "in", ["queued", "in_progress"])
    .groupBy("status")
    .execute();
  const queued = rows.find((row) => row.status === "queued");
  const inProgress = rows.find((row) => row.status === "in_progress");
  const oldest = rows.map((row) => Number(row.oldest)).filter((time) => Number.isFinite(time));
  return {
    queued: Number(queued?.count ?? 0),
    inProgress: Number(inProgress?.count ?? 0),
    oldestCreatedTime: oldest.length === 0 ? null : Math.min(...oldest),
  };
}
