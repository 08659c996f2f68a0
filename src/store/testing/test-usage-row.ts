import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";

/** A usage row of `quota` for a request of `tokenId`, as the ledger's tests write them with their settlements. */
export function testUsageRow(userId: number, tokenId: number, requestId: string, quota: number): NewUsageLog {
  return {
    userId,
    tokenId,
    tokenName: "ledger",
    model: "gpt-4o",
    channelId: 1,
    requestId,
    isStream: false,
    promptTokens: 1,
    completionTokens: 1,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    quota,
    latencyMs: 1,
    status: "success",
    errorMessage: null,
    createdTime: 1_700_000_000,
    group: "default",
  };
}
