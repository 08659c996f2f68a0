import type { Kysely, OnConflictBuilder } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import type { Database } from "../database-schema.js";
import { sumUsageIntoModelRollups, sumUsageIntoRollups } from "./sum-usage-into-rollups.js";
import type { NewUsageLog } from "./usage-log-record.js";

export type { NewUsageLog } from "./usage-log-record.js";

/**
 * Writes a batch of usage rows and adds them to their hourly rollups and to their hour and model's rollups, all or
 * nothing, so the rollups are always exactly the sum of the rows (also after a crash, also with several instances
 * writing). PostgreSQL: one statement, the rows' insert and the hourly upsert writable CTEs of the model rollups'
 * upsert (no extra round trip on the settlement's transaction). SQLite has no writable CTEs: three statements in the
 * caller's transaction, or one of their own. Returns how many rows were written.
 */
export async function insertUsageLogs(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  logs: readonly NewUsageLog[],
): Promise<number> {
  if (logs.length === 0) {
    return 0;
  }
  const rows = logs.map((log) => ({
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
    cache_write_tokens: log.cacheWriteTokens,
    reasoning_tokens: log.reasoningTokens,
    quota: log.quota,
    latency_ms: log.latencyMs,
    status: log.status,
    error_message: log.errorMessage,
    created_time: log.createdTime,
    group_name: log.group,
  }));
  const rollups = sumUsageIntoRollups(logs);
  const modelRollups = sumUsageIntoModelRollups(logs);
  if (dialect === "postgres") {
    await db
      .with("logged", (query) => query.insertInto("usage_logs").values(rows).returning("id"))
      .with("rolled_up", (query) =>
        query.insertInto("usage_rollups").values(rollups).onConflict(addToExistingRollup).returning("hour"),
      )
      .insertInto("usage_model_rollups")
      .values(modelRollups)
      .onConflict(addToExistingModelRollup)
      .execute();
    return logs.length;
  }
  const write = async (transaction: Kysely<Database>) => {
    await transaction.insertInto("usage_logs").values(rows).execute();
    await transaction.insertInto("usage_rollups").values(rollups).onConflict(addToExistingRollup).execute();
    await transaction
      .insertInto("usage_model_rollups")
      .values(modelRollups)
      .onConflict(addToExistingModelRollup)
      .execute();
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return logs.length;
}

function addToExistingRollup(conflict: OnConflictBuilder<Database, "usage_rollups">) {
  return conflict
    .columns(["hour", "user_id", "token_id", "model", "channel_id", "group_name"])
    .doUpdateSet((expression) => ({
      requests: expression("usage_rollups.requests", "+", expression.ref("excluded.requests")),
      errors: expression("usage_rollups.errors", "+", expression.ref("excluded.errors")),
      prompt_tokens: expression("usage_rollups.prompt_tokens", "+", expression.ref("excluded.prompt_tokens")),
      completion_tokens: expression(
        "usage_rollups.completion_tokens",
        "+",
        expression.ref("excluded.completion_tokens"),
      ),
      cached_tokens: expression("usage_rollups.cached_tokens", "+", expression.ref("excluded.cached_tokens")),
      cache_write_tokens: expression(
        "usage_rollups.cache_write_tokens",
        "+",
        expression.ref("excluded.cache_write_tokens"),
      ),
      quota: expression("usage_rollups.quota", "+", expression.ref("excluded.quota")),
      latency_ms: expression("usage_rollups.latency_ms", "+", expression.ref("excluded.latency_ms")),
    }));
}

function addToExistingModelRollup(conflict: OnConflictBuilder<Database, "usage_model_rollups">) {
  return conflict.columns(["hour", "model"]).doUpdateSet((expression) => ({
    requests: expression("usage_model_rollups.requests", "+", expression.ref("excluded.requests")),
    errors: expression("usage_model_rollups.errors", "+", expression.ref("excluded.errors")),
    prompt_tokens: expression("usage_model_rollups.prompt_tokens", "+", expression.ref("excluded.prompt_tokens")),
    completion_tokens: expression(
      "usage_model_rollups.completion_tokens",
      "+",
      expression.ref("excluded.completion_tokens"),
    ),
    cached_tokens: expression("usage_model_rollups.cached_tokens", "+", expression.ref("excluded.cached_tokens")),
    cache_write_tokens: expression(
      "usage_model_rollups.cache_write_tokens",
      "+",
      expression.ref("excluded.cache_write_tokens"),
    ),
    quota: expression("usage_model_rollups.quota", "+", expression.ref("excluded.quota")),
    latency_ms: expression("usage_model_rollups.latency_ms", "+", expression.ref("excluded.latency_ms")),
  }));
}
