export interface UsageLogRecord {
  id: number;
  userId: number;
  tokenId: number;
  tokenName: string;
  model: string;
  channelId: number | null;
  requestId: string;
  isStream: boolean;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the provider's prompt cache (part of promptTokens). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's prompt cache (part of promptTokens, apart from the reads). */
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** quota charged, internal units */
  quota: number;
  latencyMs: number;
  status: "success" | "error";
  errorMessage: string | null;
  createdTime: number;
  /** The group the request was billed under ('' for rows logged before groups were recorded). */
  group: string;
}

/** A row to write: everything but the id the database gives it. */
export type NewUsageLog = Omit<UsageLogRecord, "id">;
