import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";

export interface UserUsageAggregate {
  userId: number;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  quota: number;
}

/**
 * Every user's usage summed over whole UTC hours from the hourly rollups, the largest quota first (then the most
 * requests, then the lowest user id), at most `limit` users. Like the per-model statistics, its cost follows the
 * rollup rows of the range, never the number of requests.
 */
export async function aggregateUsageByUser(
  db: Kysely<Database>,
  range: { startHour: number; endHour: number },
  limit: number,
): Promise<UserUsageAggregate[]> {
  const quota = sql<number>`sum(quota)`;
  const requests = sql<number>`sum(requests)`;
  const rows = await db
    .selectFrom("usage_rollups")
    .select((expression) => [
      "user_id",
      requests.as("requests"),
      expression.fn.sum<number>("errors").as("errors"),
      expression.fn.sum<number>("prompt_tokens").as("prompt_tokens"),
      expression.fn.sum<number>("completion_tokens").as("completion_tokens"),
      expression.fn.sum<number>("cached_tokens").as("cached_tokens"),
      expression.fn.sum<number>("cache_write_tokens").as("cache_write_tokens"),
      quota.as("quota"),
    ])
    .where("hour", ">=", range.startHour)
    .where("hour", "<", range.endHour)
    .groupBy("user_id")
    .orderBy(quota, "desc")
    .orderBy(requests, "desc")
    .orderBy("user_id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    userId: Number(row.user_id),
    requests: Number(row.requests),
    errors: Number(row.errors),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedTokens: Number(row.cached_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    quota: Number(row.quota),
  }));
}
