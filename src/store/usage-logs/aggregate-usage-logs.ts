import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { applyUsageLogFilter, type UsageLogFilter } from "./usage-log-filter.js";

export interface UsageAggregate {
  /** Start of the bucket, Unix seconds (a multiple of the bucket size: UTC midnight or the UTC hour). */
  time: number;
  model: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  quota: number;
}

/** Usage summed per time bucket and model, oldest bucket first, then by model; empty buckets are absent. */
export async function aggregateUsageLogs(
  db: Kysely<Database>,
  filter: UsageLogFilter,
  bucketSeconds: number,
): Promise<UsageAggregate[]> {
  // Integer arithmetic on Unix seconds: the same bucket in SQLite and PostgreSQL, in UTC, without date functions.
  const bucket = sql<number>`created_time - (created_time % ${sql.lit(bucketSeconds)})`;
  const rows = await applyUsageLogFilter(
    db
      .selectFrom("usage_logs")
      .select((expression) => [
        bucket.as("time"),
        "model",
        expression.fn.countAll<number>().as("requests"),
        expression.fn.sum<number>(sql`case when status = 'error' then 1 else 0 end`).as("errors"),
        expression.fn.sum<number>("prompt_tokens").as("prompt_tokens"),
        expression.fn.sum<number>("completion_tokens").as("completion_tokens"),
        expression.fn.sum<number>("quota").as("quota"),
      ]),
    filter,
  )
    .groupBy([bucket, "model"])
    .orderBy(bucket)
    .orderBy("model")
    .execute();
  return rows.map((row) => ({
    time: Number(row.time),
    model: row.model,
    requests: Number(row.requests),
    errors: Number(row.errors),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    quota: Number(row.quota),
  }));
}
