import type { components } from "../../../generated/types/management.js";
import type { UsageAggregate } from "../../store/usage-logs/aggregate-usage-rollups.js";

type LogStatistics = components["schemas"]["LogStatistics"];

/** The statistics answer: the buckets as stored, and their sum. */
export function summarizeUsage(
  granularity: LogStatistics["granularity"],
  range: { start: number; end: number },
  buckets: UsageAggregate[],
): LogStatistics {
  const totals = {
    requests: 0,
    errors: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    quota: 0,
  };
  const items = buckets.map((bucket) => {
    totals.requests += bucket.requests;
    totals.errors += bucket.errors;
    totals.prompt_tokens += bucket.promptTokens;
    totals.completion_tokens += bucket.completionTokens;
    totals.cached_tokens += bucket.cachedTokens;
    totals.cache_write_tokens += bucket.cacheWriteTokens;
    totals.quota += bucket.quota;
    return {
      time: bucket.time,
      model: bucket.model,
      requests: bucket.requests,
      errors: bucket.errors,
      prompt_tokens: bucket.promptTokens,
      completion_tokens: bucket.completionTokens,
      cached_tokens: bucket.cachedTokens,
      cache_write_tokens: bucket.cacheWriteTokens,
      quota: bucket.quota,
    };
  });
  return { granularity, start_time: range.start, end_time: range.end, items, totals };
}
