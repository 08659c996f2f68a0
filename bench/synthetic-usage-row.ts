import crypto from "node:crypto";
import type { NewUsageLog } from "../src/store/usage-logs/insert-usage-logs.js";

const MODELS = ["gpt-4o-mini", "claude-sonnet-4-5", "gmx-2.5-flash", "text-embedding-3-small", "gpt-4.1"];

/**
 * Row `index` of `total` spread evenly over `days` days from `start`, shaped like the relay's: 36-character request
 * ids, ordinary token and model names, 40 users with 80 tokens over 5 models, 6 channels and 2 groups, one in
 * fifty failed with a message.
 */
export function syntheticUsageRow(index: number, total: number, start: number, days: number): NewUsageLog {
  const failed = index % 50 === 0;
  return {
    userId: 1 + (index % 40),
    tokenId: 1 + (index % 80),
    tokenName: `token-${index % 80}-production`,
    model: MODELS[index % MODELS.length]!,
    channelId: 1 + (index % 6),
    requestId: crypto.randomUUID(),
    isStream: index % 2 === 0,
    promptTokens: 200 + (index % 3000),
    completionTokens: 50 + (index % 800),
    cachedTokens: index % 4 === 0 ? 1024 : 0,
    cacheWriteTokens: index % 16 === 0 ? 512 : 0,
    reasoningTokens: index % 5 === 0 ? 120 : 0,
    quota: 1_000 + (index % 50_000),
    latencyMs: 300 + (index % 5_000),
    status: failed ? "error" : "success",
    errorMessage: failed ? "upstream answered 503: the model is overloaded, try again later" : null,
    createdTime: start + Math.floor((index / total) * days * 86_400),
    group: index % 3 === 0 ? "vip" : "default",
  };
}
