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
  const result = await db
    .deleteFrom("usage_logs")
    .where("id", "in", (query) =>
      query.selectFrom("usage_logs").select("id").where("created_time", "<", createdBefore).orderBy("id").limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the rollups of the oldest hour before `hourBefore`, if any: one hour at a time, whose rows are bounded by
 * the users, tokens and models active in it. Returns how many rows went.
 */
export async function deleteOldestUsageRollupHourBefore(db: Kysely<Database>, hourBefore: number): Promise<number> {
  const oldest = await db
    .selectFrom("usage_rollups")
    .select((expression) => expression.fn.min<number>("hour").as("hour"))
    .where("hour", "<", hourBefore)
    .executeTakeFirst();
  if (oldest?.hour === null || oldest?.hour === undefined) return 0;
  const result = await db.deleteFrom("usage_rollups").where("hour", "=", Number(oldest.hour)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
