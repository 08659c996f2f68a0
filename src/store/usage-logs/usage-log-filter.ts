import type { SelectQueryBuilder } from "kysely";
import type { Database } from "../database-schema.js";

export interface UsageLogFilter {
  userId: number;
  tokenId?: number;
  model?: string;
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
  let filtered = query.where("user_id", "=", filter.userId);
  if (filter.tokenId !== undefined) filtered = filtered.where("token_id", "=", filter.tokenId);
  if (filter.model !== undefined) filtered = filtered.where("model", "=", filter.model);
  if (filter.startTime !== undefined) filtered = filtered.where("created_time", ">=", filter.startTime);
  if (filter.endTime !== undefined) filtered = filtered.where("created_time", "<=", filter.endTime);
  return filtered;
}
