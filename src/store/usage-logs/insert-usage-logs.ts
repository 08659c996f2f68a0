import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { UsageLogRecord } from "./usage-log-record.js";

export type NewUsageLog = Omit<UsageLogRecord, "id">;

/** Writes a batch of usage rows in one statement (the logger buffers them); returns how many were written. */
export async function insertUsageLogs(db: Kysely<Database>, logs: readonly NewUsageLog[]): Promise<number> {
  if (logs.length === 0) {
    return 0;
  }
  const result = await db
    .insertInto("usage_logs")
    .values(
      logs.map((log) => ({
        user_id: log.userId,
        token_id: log.tokenId,
        token_name: log.tokenName,
        model: log.model,
        channel_id: log.channelId,
        request_id: log.requestId,
        is_stream: log.isStream ? 1 : 0,
        prompt_tokens: log.promptTokens,
        completion_tokens: log.completionTokens,
        cached_tokens: log.cachedTokens,
        reasoning_tokens: log.reasoningTokens,
        quota: log.quota,
        latency_ms: log.latencyMs,
        status: log.status,
        error_message: log.errorMessage,
        created_time: log.createdTime,
      })),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? BigInt(logs.length));
}
