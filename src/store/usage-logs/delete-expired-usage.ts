import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { GatewayDatabase } from "../gateway-database.js";
import { type DeletedBatch, runDeletionBatch } from "../run-deletion-batch.js";

/**
 * Deletes at most `limit` usage rows created before `createdBefore` (Unix seconds), oldest first. Small batches keep
 * each delete's transaction (and on SQLite the one writer) short, so requests never wait long (run-deletion-batch.ts).
 */
export function deleteUsageLogsCreatedBefore(
  database: GatewayDatabase,
  createdBefore: number,
  limit: number,
): Promise<DeletedBatch> {
  // The time condition twice: on PostgreSQL the outer one keeps the delete to the partitions that can hold the rows.
  return runDeletionBatch(
    database,
    database.db
      .deleteFrom("usage_logs")
      .where("created_time", "<", createdBefore)
      .where("id", "in", (query) =>
        query
          .selectFrom("usage_logs")
          .select("id")
          .where("created_time", "<", createdBefore)
          .orderBy("id")
          .limit(limit),
      ),
  );
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
