import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/**
 * Deletes at most `limit` usage rows created before `createdBefore` (Unix seconds), oldest first; returns how many.
 * Small batches keep each delete's transaction (and on SQLite the one writer) short, so requests never wait long.
 */
export async function deleteUsageLogsCreatedBefore(
  db: Kysely<Database>,
  createdBefore: number,
  limit: number,
): Promise<number> {
  // The time condition twice: on PostgreSQL the outer one keeps the delete to the partitions that can hold the rows.
  const result = await db
    .deleteFrom("usage_logs")
    .where("created_time", "<", createdBefore)
    .where("id", "in", (query) =>
      query.selectFrom("usage_logs").select("id").where("created_time", "<", createdBefore).orderBy("id").limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the rollups (hourly, and hour and model) of the oldest hour before `hourBefore`, if any: one hour at a
 * time, whose rows are bounded by the users, tokens and models active in it. Returns how many rows went.
 */
export async function deleteOldestUsageRollupHourBefore(db: Kysely<Database>, hourBefore: number): Promise<number> {
  const oldest = async (table: "usage_rollups" | "usage_model_rollups") => {
    const row = await db
      .selectFrom(table)
      .select((expression) => expression.fn.min<number>("hour").as("hour"))
      .where("hour", "<", hourBefore)
      .executeTakeFirst();
    return row?.hour === null || row?.hour === undefined ? undefined : Number(row.hour);
  };
  // Each table's own oldest hour: the two deletes are separate statements, and a pass cut between them (a stop, a
  // crash) leaves the next pass an hour that only one of them still holds.
  const hours = [await oldest("usage_rollups"), await oldest("usage_model_rollups")].filter(
    (hour): hour is number => hour !== undefined,
  );
  if (hours.length === 0) return 0;
  const hour = Math.min(...hours);
  const rollups = await db.deleteFrom("usage_rollups").where("hour", "=", hour).executeTakeFirst();
  const modelRollups = await db.deleteFrom("usage_model_rollups").where("hour", "=", hour).executeTakeFirst();
  return Number(rollups.numDeletedRows) + Number(modelRollups.numDeletedRows);
}
