import type { SelectQueryBuilder } from "kysely";
import type { Database } from "../database-schema.js";

export interface UsageLogFilter {
  /** Undefined only in administrators' views of every user. */
  userId: number | undefined;
  tokenId?: number;
  model?: string;
  channelId?: number;
  group?: string;
  status?: "success" | "error";
  requestId?: string;
  /** Unix seconds, inclusive */
  startTime?: number;
  /** Unix seconds, inclusive */
  endTime?: number;
}

/** Shared by the list and the count so a page and its total always agree. */
export function applyUsageLogFilter<Output>(
  query: SelectQueryBuilder<Database, "usage_logs", Output>,
  filter: UsageLogFilter,
): SelectQueryBuilder<Database, "usage_logs", Output> {
  let filtered = query;
  if (filter.userId !== undefined) filtered = filtered.where("user_id", "=", filter.userId);
  if (filter.tokenId !== undefined) filtered = filtered.where("token_id", "=", filter.tokenId);
  if (filter.model !== undefined) filtered = filtered.where("model", "=", filter.model);
  if (filter.channelId !== undefined) filtered = filtered.where("channel_id", "=", filter.channelId);
  if (filter.group !== undefined) filtered = filtered.where("group_name", "=", filter.group);
  if (filter.status !== undefined) filtered = filtered.where("status", "=", filter.status);
  if (filter.requestId !== undefined) filtered = filtered.where("request_id", "=", filter.requestId);
  if (filter.startTime !== undefined) filtered = filtered.where("created_time", ">=", filter.startTime);
  if (filter.endTime !== undefined) filtered = filtered.where("created_time", "<=", filter.endTime);
  return filtered;
}
