import type BetterSqlite3 from "better-sqlite3";
import type { NewUsageLog } from "./insert-usage-logs.js";

/**
 * SQLite: one usage row through a reused prepared statement, a few microseconds, run inside the ledger's commit
 * window so it commits with the settlement it belongs to. The batched multi-row Kysely insert (insert-usage-logs.ts,
 * PostgreSQL) built and prepared statements of hundreds of rows at a time, which held the event loop for
 * milliseconds per batch. Same columns and values as insert-usage-logs.ts.
 */
export function createSqliteUsageLogInserter(connection: BetterSqlite3.Database): (log: NewUsageLog) => void {
  const insert = connection.prepare(
    `insert into usage_logs (user_id, token_id, token_name, model, channel_id, request_id, is_stream, prompt_tokens, completion_tokens,
       cached_tokens, reasoning_tokens, quota, latency_ms, status, error_message, created_time)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (log) => {
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
      log.reasoningTokens,
      log.quota,
      log.latencyMs,
      log.status,
      log.errorMessage,
      log.createdTime,
    );
  };
}
