import type { MeteredUsage } from "../../billing/metered-usage.js";

/** Anthropic's usage object as answers and stream events carry it: every field optional (tolerant reading). */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * Anthropic's usage → ours. Anthropic's `input_tokens` leaves out the prompt read from and written to its cache;
 * ours counts the whole prompt in `promptTokens`, with the reads as `cachedTokens` (priced at cached input) and the
 * writes as `cacheWriteTokens` (priced at cache write input).
 */
export function convertAnthropicUsage(usage: AnthropicUsage): MeteredUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    promptTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    completionTokens: usage.output_tokens ?? 0,
    cachedTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: 0,
  };
}

/** A later usage report (message_delta: cumulative) over an earlier one (message_start): present fields win. */
export function mergeAnthropicUsage(earlier: AnthropicUsage, later: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...earlier };
  for (const field of [
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
  ] as const) {
    const value = later[field];
    if (typeof value === "number") merged[field] = value;
  }
  return merged;
}
