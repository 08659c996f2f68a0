import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";

const HOUR_SECONDS = 3_600;

export interface UsageAggregate {
  /** Start of the bucket, Unix seconds (a multiple of the bucket size: UTC midnight or the UTC hour). */
  time: number;
  model: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  quota: number;
  latencyMs: number;
}

export interface UsageRollupFilter {
  /** Undefined only in administrators' views of every user. */
  userId: number | undefined;
  tokenId?: number;
  model?: string;
  channelId?: number;
  group?: string;
  /** Unix seconds, a whole UTC hour, inclusive. */
  startHour: number;
  /** Unix seconds, a whole UTC hour, exclusive. */
  endHour: number;
}

/**
 * Usage summed per time bucket and model, oldest bucket first, then by model; empty buckets are absent. Its cost
 * follows the rollup rows of the range, never the number of requests: every user's statistics, not narrowed to a
 * token, channel or group, read the hour and model rollups (hours × models); anything narrower reads the hourly
 * rollups (hours × the keys busy in them), a user's through the user's index (on SQLite it holds every summed
 * column; on PostgreSQL it does not, so a settlement's rollup update writes no index: migration 0020).
 */
export async function aggregateUsageRollups(
  db: Kysely<Database>,
  filter: UsageRollupFilter,
  bucketSeconds: number,
): Promise<UsageAggregate[]> {
  // By the hour the bucket is the key column itself: the grouping then follows the primary key's order (hour, model)
  // instead of sorting every row of the range in a temporary B-tree.
  const bucket =
    bucketSeconds === HOUR_SECONDS ? sql<number>`hour` : sql<number>`hour - (hour % ${sql.lit(bucketSeconds)})`;
  const everyKey =
    filter.userId === undefined &&
    filter.tokenId === undefined &&
    filter.channelId === undefined &&
    filter.group === undefined;
  // Both tables have these columns: the query is written once, against the hourly table's type.
  const table = (everyKey ? "usage_model_rollups" : "usage_rollups") as "usage_rollups";
  let query = db
    .selectFrom(table)
    .select((expression) => [
      bucket.as("time"),
      "model",
      expression.fn.sum<number>("requests").as("requests"),
      expression.fn.sum<number>("errors").as("errors"),
      expression.fn.sum<number>("prompt_tokens").as("prompt_tokens"),
      expression.fn.sum<number>("completion_tokens").as("completion_tokens"),
      expression.fn.sum<number>("cached_tokens").as("cached_tokens"),
      expression.fn.sum<number>("cache_write_tokens").as("cache_write_tokens"),
      expression.fn.sum<number>("quota").as("quota"),
      expression.fn.sum<number>("latency_ms").as("latency_ms"),
    ])
    .where("hour", ">=", filter.startHour)
    .where("hour", "<", filter.endHour);
  if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
  if (filter.tokenId !== undefined) query = query.where("token_id", "=", filter.tokenId);
  if (filter.model !== undefined) query = query.where("model", "=", filter.model);
  if (filter.channelId !== undefined) query = query.where("channel_id", "=", filter.channelId);
  if (filter.group !== undefined) query = query.where("group_name", "=", filter.group);
  const rows = await query.groupBy([bucket, "model"]).orderBy(bucket).orderBy("model").execute();
  return rows.map((row) => ({
    time: Number(row.time),
    model: row.model,
    requests: Number(row.requests),
    errors: Number(row.errors),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedTokens: Number(row.cached_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    quota: Number(row.quota),
    latencyMs: Number(row.latency_ms),
  }));
}
