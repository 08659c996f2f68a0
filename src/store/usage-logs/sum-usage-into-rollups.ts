import type { Insertable } from "kysely";
import type { UsageModelRollupsTable, UsageRollupsTable } from "../database-schema.js";
import type { NewUsageLog } from "./usage-log-record.js";

export type UsageRollupIncrement = Insertable<UsageRollupsTable>;
export type UsageModelRollupIncrement = Insertable<UsageModelRollupsTable>;

const HOUR_SECONDS = 3_600;

/** The UTC hour a row is summed into: integer arithmetic on Unix seconds, the same in SQLite and PostgreSQL. */
export function hourOf(createdTime: number): number {
  return createdTime - (createdTime % HOUR_SECONDS);
}

/** What one usage row adds to its hourly rollup. */
export function toRollupIncrement(log: NewUsageLog): UsageRollupIncrement {
  return {
    hour: hourOf(log.createdTime),
    user_id: log.userId,
    token_id: log.tokenId,
    model: log.model,
    // A key column cannot be null and stay unique: a request that reached no channel is filed under channel 0.
    channel_id: log.channelId ?? 0,
    group_name: log.group,
    requests: 1,
    errors: log.status === "error" ? 1 : 0,
    prompt_tokens: log.promptTokens,
    completion_tokens: log.completionTokens,
    cached_tokens: log.cachedTokens,
    cache_write_tokens: log.cacheWriteTokens,
    quota: log.quota,
    latency_ms: log.latencyMs,
  };
}

/** What one usage row adds to its hour and model's rollup (every user's statistics). */
export function toModelRollupIncrement(log: NewUsageLog): UsageModelRollupIncrement {
  return {
    hour: hourOf(log.createdTime),
    model: log.model,
    requests: 1,
    errors: log.status === "error" ? 1 : 0,
    prompt_tokens: log.promptTokens,
    completion_tokens: log.completionTokens,
    cached_tokens: log.cachedTokens,
    cache_write_tokens: log.cacheWriteTokens,
    quota: log.quota,
    latency_ms: log.latencyMs,
  };
}

/**
 * A batch of rows as one increment per rollup key. One upsert statement cannot touch the same row twice, and the
 * keys are sorted so that two batches written at once (two instances) lock their rollup rows in the same order and
 * never wait on each other in a cycle.
 */
export function sumUsageIntoRollups(logs: readonly NewUsageLog[]): UsageRollupIncrement[] {
  return sumByKey(logs, toRollupIncrement, (increment) => [
    increment.hour,
    increment.user_id,
    increment.token_id,
    increment.model,
    increment.channel_id,
    increment.group_name,
  ]);
}

/** A batch of rows as one increment per hour and model, sorted like sumUsageIntoRollups for the same reason. */
export function sumUsageIntoModelRollups(logs: readonly NewUsageLog[]): UsageModelRollupIncrement[] {
  return sumByKey(logs, toModelRollupIncrement, (increment) => [increment.hour, increment.model]);
}

function sumByKey<Increment extends UsageModelRollupIncrement>(
  logs: readonly NewUsageLog[],
  toIncrement: (log: NewUsageLog) => Increment,
  keyOf: (increment: Increment) => unknown[],
): Increment[] {
  const byKey = new Map<string, Increment>();
  for (const log of logs) {
    const increment = toIncrement(log);
    const key = JSON.stringify(keyOf(increment));
    const existing = byKey.get(key);
    if (existing === undefined) {
      byKey.set(key, increment);
      continue;
    }
    existing.requests = Number(existing.requests) + 1;
    existing.errors = Number(existing.errors) + Number(increment.errors);
    existing.prompt_tokens = Number(existing.prompt_tokens) + Number(increment.prompt_tokens);
    existing.completion_tokens = Number(existing.completion_tokens) + Number(increment.completion_tokens);
    existing.cached_tokens = Number(existing.cached_tokens) + Number(increment.cached_tokens);
    existing.cache_write_tokens = Number(existing.cache_write_tokens) + Number(increment.cache_write_tokens);
    existing.quota = Number(existing.quota) + Number(increment.quota);
    existing.latency_ms = Number(existing.latency_ms) + Number(increment.latency_ms);
  }
  return [...byKey.entries()]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([, row]) => row);
}
