import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/store/database-schema.js";

export interface RollupSums {
  hour: number;
  user_id: number;
  token_id: number;
  model: string;
  channel_id: number;
  group_name: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  quota: number;
  latency_ms: number;
}

/**
 * The hourly rollups as stored, and the same sums computed from the raw usage rows, both in one order: a test of
 * the rollups expects the two lists to be equal.
 */
export async function readRollupsAndRowSums(
  db: Kysely<Database>,
): Promise<{ rollups: RollupSums[]; fromRows: RollupSums[] }> {
  const stored = await sql<RollupSums>`
    select hour, user_id, token_id, model, channel_id, group_name, requests, errors, prompt_tokens,
      completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms
    from usage_rollups
    order by hour, user_id, token_id, model, channel_id, group_name`.execute(db);
  const summed = await sql<RollupSums>`
    select created_time - (created_time % 3600) as hour, user_id, token_id, model,
      coalesce(channel_id, 0) as channel_id, group_name, count(*) as requests,
      sum(case when status = 'error' then 1 else 0 end) as errors, sum(prompt_tokens) as prompt_tokens,
      sum(completion_tokens) as completion_tokens, sum(cached_tokens) as cached_tokens,
      sum(cache_write_tokens) as cache_write_tokens, sum(quota) as quota, sum(latency_ms) as latency_ms
    from usage_logs
    group by created_time - (created_time % 3600), user_id, token_id, model, coalesce(channel_id, 0), group_name
    order by 1, 2, 3, 4, 5, 6`.execute(db);
  const normalise = (row: RollupSums): RollupSums => ({
    hour: Number(row.hour),
    user_id: Number(row.user_id),
    token_id: Number(row.token_id),
    model: row.model,
    channel_id: Number(row.channel_id),
    group_name: row.group_name,
    requests: Number(row.requests),
    errors: Number(row.errors),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    cached_tokens: Number(row.cached_tokens),
    cache_write_tokens: Number(row.cache_write_tokens),
    quota: Number(row.quota),
    latency_ms: Number(row.latency_ms),
  });
  return { rollups: stored.rows.map(normalise), fromRows: summed.rows.map(normalise) };
}

export type ModelRollupSums = Omit<RollupSums, "user_id" | "token_id" | "channel_id" | "group_name">;

/**
 * The hour and model rollups as stored, the same sums computed from the raw usage rows, and from the hourly rollups,
 * all in one order: a test expects the three lists to be equal (the last also after retention took raw rows).
 */
export async function readModelRollupsAndSums(
  db: Kysely<Database>,
): Promise<{ modelRollups: ModelRollupSums[]; fromRows: ModelRollupSums[]; fromRollups: ModelRollupSums[] }> {
  const stored = await sql<ModelRollupSums>`
    select hour, model, requests, errors, prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, quota,
      latency_ms
    from usage_model_rollups
    order by hour, model`.execute(db);
  const summedRows = await sql<ModelRollupSums>`
    select created_time - (created_time % 3600) as hour, model, count(*) as requests,
      sum(case when status = 'error' then 1 else 0 end) as errors, sum(prompt_tokens) as prompt_tokens,
      sum(completion_tokens) as completion_tokens, sum(cached_tokens) as cached_tokens,
      sum(cache_write_tokens) as cache_write_tokens, sum(quota) as quota, sum(latency_ms) as latency_ms
    from usage_logs
    group by created_time - (created_time % 3600), model
    order by 1, 2`.execute(db);
  const summedRollups = await sql<ModelRollupSums>`
    select hour, model, sum(requests) as requests, sum(errors) as errors, sum(prompt_tokens) as prompt_tokens,
      sum(completion_tokens) as completion_tokens, sum(cached_tokens) as cached_tokens,
      sum(cache_write_tokens) as cache_write_tokens, sum(quota) as quota, sum(latency_ms) as latency_ms
    from usage_rollups
    group by hour, model
    order by 1, 2`.execute(db);
  const normalise = (row: ModelRollupSums): ModelRollupSums => ({
    hour: Number(row.hour),
    model: row.model,
    requests: Number(row.requests),
    errors: Number(row.errors),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    cached_tokens: Number(row.cached_tokens),
    cache_write_tokens: Number(row.cache_write_tokens),
    quota: Number(row.quota),
    latency_ms: Number(row.latency_ms),
  });
  return {
    modelRollups: stored.rows.map(normalise),
    fromRows: summedRows.rows.map(normalise),
    fromRollups: summedRollups.rows.map(normalise),
  };
}
