import type { MeteredUsage } from "../billing/metered-usage.js";

interface OpenaiChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number; image_tokens?: number } | null;
}

interface OpenaiResponsesUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** Chat-completions usage (prompt/completion names) as metered usage; completion tokens include reasoning. */
export function convertOpenaiChatUsage(usage: OpenaiChatUsage): MeteredUsage {
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
    ...(usage.completion_tokens_details?.audio_tokens
      ? { audioOutputTokens: usage.completion_tokens_details.audio_tokens }
      : {}),
    ...(usage.completion_tokens_details?.image_tokens
      ? { imageOutputTokens: usage.completion_tokens_details.image_tokens }
      : {}),
    ...(usage.prompt_tokens_details?.audio_tokens
      ? { audioInputTokens: usage.prompt_tokens_details.audio_tokens }
      : {}),
  };
}

/** Responses-API usage (input/output names) as metered usage. */
export function convertOpenaiResponsesUsage(usage: OpenaiResponsesUsage): MeteredUsage {
  return {
    promptTokens: usage.input_tokens ?? 0,
    completionTokens: usage.output_tokens ?? 0,
    cachedTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
