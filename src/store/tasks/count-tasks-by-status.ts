import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** How many tasks are in each status (statuses without tasks are left out). */
export async function countTasksByStatus(db: Kysely<Database>): Promise<Array<{ status: string; count: number }>> {
  const rows = await db
    .selectFrom("tasks")
    .select((expression) => ["status", expression.fn.countAll<number>().as("count")])
    .groupBy("status")
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
