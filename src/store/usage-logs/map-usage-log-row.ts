import type { Selectable } from "kysely";
import type { UsageLogsTable } from "../database-schema.js";
import type { UsageLogRecord } from "./usage-log-record.js";

export function mapUsageLogRow(row: Selectable<UsageLogsTable>): UsageLogRecord {
  return {
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    tokenName: row.token_name,
    model: row.model,
    channelId: row.channel_id,
    requestId: row.request_id,
    isStream: row.is_stream === 1,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    cachedTokens: row.cached_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    reasoningTokens: row.reasoning_tokens,
    quota: row.quota,
    latencyMs: row.latency_ms,
    status: row.status,
    errorMessage: row.error_message,
    createdTime: row.created_time,
    group: row.group_name,
  };
}
