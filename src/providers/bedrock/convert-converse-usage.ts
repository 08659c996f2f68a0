import type { components } from "../../../generated/types/openai.js";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import type { ConverseUsage } from "./converse-types.js";

/**
 * Converse usage → what billing meters and what chat clients read. Converse counts cache reads and writes apart
 * from `inputTokens`; the prompt is all three, the reads are its cached part (priced `cached_input`) and the writes
 * its part written to the cache (priced `cache_write_input`).
 */
export function convertConverseUsage(usage: ConverseUsage | undefined): {
  metered: MeteredUsage;
  chat: NonNullable<components["schemas"]["ChatCompletion"]["usage"]>;
} {
  const cacheRead = usage?.cacheReadInputTokens ?? 0;
  const cacheWrite = usage?.cacheWriteInputTokens ?? 0;
  const promptTokens = (usage?.inputTokens ?? 0) + cacheRead + cacheWrite;
  const completionTokens = usage?.outputTokens ?? 0;
  return {
    metered: {
      promptTokens,
      completionTokens,
      cachedTokens: cacheRead,
      ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
      reasoningTokens: 0,
    },
    chat: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(cacheRead > 0 ? { prompt_tokens_details: { cached_tokens: cacheRead } } : {}),
    },
  };
}

/** Converse's stop reason → the chat finish reason. */
export function mapConverseStopReason(
  stopReason: string | undefined,
): "stop" | "length" | "tool_calls" | "content_filter" {
  switch (stopReason) {
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "guardrail_intervened":
    case "content_filtered":
      return "content_filter";
    default:
      return "stop";
  }
}
