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
  cachedTokens: number;
  reasoningTokens: number;
  /** quota charged, internal units */
  quota: number;
  latencyMs: number;
  status: "success" | "error";
  errorMessage: string | null;
  createdTime: number;
}
