import { type Kysely, sql } from "kysely";
import type { DatabaseDialect } from "../src/store/database-dialect.js";
import type { Database } from "../src/store/database-schema.js";

/**
 * `total` usage rows spread evenly over `days` days from `start`, written by the database itself (a recursive CTE on
 * SQLite, generate_series on PostgreSQL) in slices of `slice` rows, then summed into both rollups by one grouped
 * upsert each: the rollups equal the rows, as the gateway keeps them (the range must hold no row before; other
 * times may). Row `i` is the row
 * synthetic-usage-row.ts makes for index `i` (40 users, 80 tokens, 5 models, 6 channels, 2 groups: 240 rollup keys
 * busy every hour), apart from its request id, random here as there. Millions of rows take seconds per million,
 * not the minutes of inserts from JavaScript.
 */
export async function generateUsageRows(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  options: { total: number; start: number; days: number; slice?: number; onProgress?: (written: number) => void },
): Promise<void> {
  const { total, start, days } = options;
  const slice = options.slice ?? 500_000;
  const span = days * 86_400;
  for (let from = 0; from < total; from += slice) {
    const to = Math.min(total, from + slice) - 1;
    const values = (index: string, requestId: string) => sql`
      select 1 + ${sql.raw(index)} % 40, 1 + ${sql.raw(index)} % 80,
        'token-' || (${sql.raw(index)} % 80) || '-production',
        case ${sql.raw(index)} % 5 when 0 then 'gpt-4o-mini' when 1 then 'claude-sonnet-4-5' when 2 then 'gmx-2.5-flash'
          when 3 then 'text-embedding-3-small' else 'gpt-4.1' end,
        1 + ${sql.raw(index)} % 6, ${sql.raw(requestId)}, 1 - ${sql.raw(index)} % 2,
        200 + ${sql.raw(index)} % 3000, 50 + ${sql.raw(index)} % 800,
        case when ${sql.raw(index)} % 4 = 0 then 1024 else 0 end, case when ${sql.raw(index)} % 16 = 0 then 512 else 0 end,
        case when ${sql.raw(index)} % 5 = 0 then 120 else 0 end, 1000 + ${sql.raw(index)} % 50000,
        300 + ${sql.raw(index)} % 5000,
        case when ${sql.raw(index)} % 50 = 0 then 'error' else 'success' end,
        case when ${sql.raw(index)} % 50 = 0 then 'upstream answered 503: the model is overloaded, try again later' end,
        ${sql.lit(start)} + (${sql.raw(index)} * ${sql.lit(span)}) / ${sql.lit(total)},
        case when ${sql.raw(index)} % 3 = 0 then 'vip' else 'default' end`;
    const columns = sql`(user_id, token_id, token_name, model, channel_id, request_id, is_stream, prompt_tokens,
      completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, quota, latency_ms, status, error_message,
      created_time, group_name)`;
    if (dialect === "postgres") {
      await sql`insert into usage_logs ${columns}
        ${values("i::bigint", "gen_random_uuid()::text")} from generate_series(${sql.lit(from)}::bigint, ${sql.lit(to)}::bigint) as i`.execute(
        db,
      );
    } else {
      const uuid = `lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4)
        || '-' || substr(h, 21, 12))`;
      await sql`insert into usage_logs ${columns}
        with recursive series(i) as (select ${sql.lit(from)} union all select i + 1 from series where i < ${sql.lit(to)}),
          numbered(i, h) as (select i, hex(randomblob(16)) from series)
        ${values("i", uuid)} from numbered`.execute(db);
    }
    options.onProgress?.(to + 1);
  }
  await sql`
    insert into usage_rollups (hour, user_id, token_id, model, channel_id, group_name, requests, errors,
      prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
    select created_time - (created_time % 3600), user_id, token_id, model, coalesce(channel_id, 0), group_name,
      count(*), sum(case when status = 'error' then 1 else 0 end), sum(prompt_tokens), sum(completion_tokens),
      sum(cached_tokens), sum(cache_write_tokens), sum(quota), sum(latency_ms)
    from usage_logs
    where created_time >= ${sql.lit(start)} and created_time < ${sql.lit(start + span)}
    group by created_time - (created_time % 3600), user_id, token_id, model, coalesce(channel_id, 0), group_name
    on conflict (hour, user_id, token_id, model, channel_id, group_name) do update set
      requests = usage_rollups.requests + excluded.requests, errors = usage_rollups.errors + excluded.errors,
      prompt_tokens = usage_rollups.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = usage_rollups.completion_tokens + excluded.completion_tokens,
      cached_tokens = usage_rollups.cached_tokens + excluded.cached_tokens,
      cache_write_tokens = usage_rollups.cache_write_tokens + excluded.cache_write_tokens,
      quota = usage_rollups.quota + excluded.quota, latency_ms = usage_rollups.latency_ms + excluded.latency_ms
  `.execute(db);
  await sql`
    insert into usage_model_rollups (hour, model, requests, errors, prompt_tokens, completion_tokens, cached_tokens,
      cache_write_tokens, quota, latency_ms)
    select created_time - (created_time % 3600), model, count(*), sum(case when status = 'error' then 1 else 0 end),
      sum(prompt_tokens), sum(completion_tokens), sum(cached_tokens), sum(cache_write_tokens), sum(quota),
      sum(latency_ms)
    from usage_logs
    where created_time >= ${sql.lit(start)} and created_time < ${sql.lit(start + span)}
    group by created_time - (created_time % 3600), model
    on conflict (hour, model) do update set
      requests = usage_model_rollups.requests + excluded.requests,
      errors = usage_model_rollups.errors + excluded.errors,
      prompt_tokens = usage_model_rollups.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = usage_model_rollups.completion_tokens + excluded.completion_tokens,
      cached_tokens = usage_model_rollups.cached_tokens + excluded.cached_tokens,
      cache_write_tokens = usage_model_rollups.cache_write_tokens + excluded.cache_write_tokens,
      quota = usage_model_rollups.quota + excluded.quota, latency_ms = usage_model_rollups.latency_ms + excluded.latency_ms
  `.execute(db);
}
