import type BetterSqlite3 from "better-sqlite3";
import type { NewUsageLog } from "./usage-log-record.js";
import { toModelRollupIncrement, toRollupIncrement } from "./sum-usage-into-rollups.js";

/**
 * SQLite: one usage row, its hourly rollup and its hour and model's rollup through reused prepared statements, a few microseconds, run inside the
 * ledger's commit window so they commit with the settlement they belong to (and, in their own savepoint, all three or
 * none: the rollups stay exactly the sum of the rows). The batched multi-row Kysely insert
 * (insert-usage-logs.ts, PostgreSQL) built and prepared statements of hundreds of rows at a time, which held the
 * event loop for milliseconds per batch. Same columns and values as insert-usage-logs.ts.
 */
export function createSqliteUsageLogInserter(connection: BetterSqlite3.Database): (log: NewUsageLog) => void {
  const insert = connection.prepare(
    `insert into usage_logs (user_id, token_id, token_name, model, channel_id, request_id, is_stream, prompt_tokens, completion_tokens,
       cached_tokens, cache_write_tokens, reasoning_tokens, quota, latency_ms, status, error_message, created_time, group_name)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addToRollup = connection.prepare(
    `insert into usage_rollups (hour, user_id, token_id, model, channel_id, group_name, requests, errors, prompt_tokens,
       completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
     values (@hour, @user_id, @token_id, @model, @channel_id, @group_name, @requests, @errors, @prompt_tokens,
       @completion_tokens, @cached_tokens, @cache_write_tokens, @quota, @latency_ms)
     on conflict (hour, user_id, token_id, model, channel_id, group_name) do update set
       requests = requests + excluded.requests, errors = errors + excluded.errors,
       prompt_tokens = prompt_tokens + excluded.prompt_tokens,
       completion_tokens = completion_tokens + excluded.completion_tokens,
       cached_tokens = cached_tokens + excluded.cached_tokens,
       cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
       quota = quota + excluded.quota, latency_ms = latency_ms + excluded.latency_ms`,
  );
  const addToModelRollup = connection.prepare(
    `insert into usage_model_rollups (hour, model, requests, errors, prompt_tokens, completion_tokens, cached_tokens,
       cache_write_tokens, quota, latency_ms)
     values (@hour, @model, @requests, @errors, @prompt_tokens, @completion_tokens, @cached_tokens,
       @cache_write_tokens, @quota, @latency_ms)
     on conflict (hour, model) do update set
       requests = requests + excluded.requests, errors = errors + excluded.errors,
       prompt_tokens = prompt_tokens + excluded.prompt_tokens,
       completion_tokens = completion_tokens + excluded.completion_tokens,
       cached_tokens = cached_tokens + excluded.cached_tokens,
       cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
       quota = quota + excluded.quota, latency_ms = latency_ms + excluded.latency_ms`,
  );
  const insertAll = connection.transaction((log: NewUsageLog) => {
    insert.run(
      log.userId,
      log.tokenId,
      log.tokenName,
      log.model,
      log.channelId,
      log.requestId,
      log.isStream ? 1 : 0,
      log.promptTokens,
      log.completionTokens,
      log.cachedTokens,
      log.cacheWriteTokens,
      log.reasoningTokens,
      log.quota,
      log.latencyMs,
      log.status,
      log.errorMessage,
      log.createdTime,
      log.group,
    );
    addToRollup.run(toRollupIncrement(log));
    addToModelRollup.run(toModelRollupIncrement(log));
  });
  return (log) => insertAll(log);
}
