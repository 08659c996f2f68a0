import type { components, operations } from "../../../generated/types/management.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { countUsageLogsForUser } from "../../store/usage-logs/count-usage-logs-for-user.js";
import { listUsageLogsForUser } from "../../store/usage-logs/list-usage-logs-for-user.js";
import type { UsageLogFilter } from "../../store/usage-logs/usage-log-filter.js";
import type { UsageLogRecord } from "../../store/usage-logs/usage-log-record.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";

type LogQuery = QueryParameters<operations["listSelfLogs"]>;

/** The signed-in user's usage log: always scoped to that user, so another user's token id simply matches nothing. */
export function createLogHandlers(context: GatewayContext): Record<"listSelfLogs", OperationHandler> {
  const { db } = context.database;
  return {
    async listSelfLogs(request, response) {
      const user = getAuthenticatedUser(response);
      const { page, size } = readPageQuery(request);
      const filter = toUsageLogFilter(user.id, request.query as LogQuery);
      const [rows, total] = await Promise.all([
        listUsageLogsForUser(db, filter, toPageWindow(page, size)),
        countUsageLogsForUser(db, filter),
      ]);
      sendSuccess(response, { items: rows.map(toUsageLogView), total, page, page_size: size });
    },
  };
}

function toUsageLogFilter(userId: number, query: LogQuery): UsageLogFilter {
  const filter: UsageLogFilter = { userId };
  const tokenId = readInteger(query.token_id);
  const startTime = readInteger(query.start_time);
  const endTime = readInteger(query.end_time);
  if (tokenId !== undefined) filter.tokenId = tokenId;
  if (typeof query.model === "string") filter.model = query.model;
  if (startTime !== undefined) filter.startTime = startTime;
  // The spec's end_time is exclusive, the store's inclusive; times are whole seconds.
  if (endTime !== undefined) filter.endTime = endTime - 1;
  return filter;
}

/** The validator has range-checked these; query values may still arrive as strings. */
function readInteger(value: unknown): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}

function toUsageLogView(row: UsageLogRecord): components["schemas"]["UsageLog"] {
  return {
    id: row.id,
    created_time: row.createdTime,
    token_id: row.tokenId,
    token_name: row.tokenName,
    model: row.model,
    channel_id: row.channelId,
    request_id: row.requestId,
    is_stream: row.isStream,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    cached_tokens: row.cachedTokens,
    reasoning_tokens: row.reasoningTokens,
    quota: row.quota,
    latency_ms: row.latencyMs,
    status: row.status,
    ...(row.status === "error" && row.errorMessage !== null ? { error_message: row.errorMessage } : {}),
  };
}
