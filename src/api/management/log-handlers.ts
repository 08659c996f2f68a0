import type { components, operations } from "../../../generated/types/management.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import { InvalidRequestError, NotFoundError } from "../../errors/gateway-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { findChannelById } from "../../store/channels/find-channel-by-id.js";
import { aggregateUsageByUser } from "../../store/usage-logs/aggregate-usage-by-user.js";
import { aggregateUsageRollups } from "../../store/usage-logs/aggregate-usage-rollups.js";
import { countUsageLogsForUser } from "../../store/usage-logs/count-usage-logs-for-user.js";
import {
  findUsageLogById,
  listUsageLogsByCursor,
  type UsageLogPosition,
} from "../../store/usage-logs/list-usage-logs-by-cursor.js";
import { listUsageLogsForUser } from "../../store/usage-logs/list-usage-logs-for-user.js";
import type { UsageLogFilter } from "../../store/usage-logs/usage-log-filter.js";
import type { UsageLogRecord } from "../../store/usage-logs/usage-log-record.js";
import { findUserByUsername } from "../../store/users/find-user-by-username.js";
import { listUsernamesByIds } from "../../store/users/list-usernames-by-ids.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";
import { summarizeUsage } from "./summarize-usage.js";
import { writeUsageLogCsv } from "./write-usage-log-csv.js";

type SelfLogQuery = QueryParameters<operations["listSelfLogs"]>;
type AllLogQuery = QueryParameters<operations["listAllLogs"]>;
type ExportLogQuery = QueryParameters<operations["exportLogs"]>;
type StatQuery = QueryParameters<operations["getLogStatistics"]>;
type UsageByUserQuery = QueryParameters<operations["listUsageByUser"]>;
type AdminUsageLog = components["schemas"]["AdminUsageLog"];

const HOUR_SECONDS = 3_600;

/**
 * Usage logs and statistics. `/api/log/self` is always scoped to the signed-in user, so another user's token id
 * simply matches nothing; `/api/log/`, its export, one row's detail, `scope=all` statistics and usage by
 * user are for administrators. Statistics read the hourly rollups only, never the raw log.
 */
export function createLogHandlers(
  context: GatewayContext,
): Record<
  "listSelfLogs" | "listAllLogs" | "exportLogs" | "getLog" | "getLogStatistics" | "listUsageByUser",
  OperationHandler
> {
  const { db } = context.database;

  /** The administrators' filters; undefined when a username names nobody (nothing matches then). */
  async function readAdministratorFilter(query: ExportLogQuery): Promise<UsageLogFilter | undefined> {
    let userId = readInteger(query.user_id);
    if (typeof query.username === "string") {
      const named = await findUserByUsername(db, query.username);
      // No such user, or a user_id that names someone else: nothing matches.
      if (!named || (userId !== undefined && userId !== named.id)) return undefined;
      userId = named.id;
    }
    const filter = toUsageLogFilter(userId, query);
    const channelId = readInteger(query.channel_id);
    if (channelId !== undefined) filter.channelId = channelId;
    if (typeof query.group === "string") filter.group = query.group;
    if (query.status === "success" || query.status === "error") filter.status = query.status;
    return filter;
  }

  async function withUsernames(rows: UsageLogRecord[]): Promise<AdminUsageLog[]> {
    const usernames = await listUsernamesByIds(db, [...new Set(rows.map((row) => row.userId))]);
    return rows.map((row) => ({
      ...toUsageLogView(row),
      user_id: row.userId,
      username: usernames.get(row.userId) ?? "",
    }));
  }

  return {
    async listSelfLogs(request, response) {
      const user = getAuthenticatedUser(response);
      const { page, size } = readPageQuery(request);
      const filter = toUsageLogFilter(user.id, request.query as SelfLogQuery);
      const [rows, total] = await Promise.all([
        listUsageLogsForUser(db, filter, toPageWindow(page, size)),
        countUsageLogsForUser(db, filter),
      ]);
      sendSuccess(response, { items: rows.map(toUsageLogView), total, page, page_size: size });
    },

    async listAllLogs(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const { size } = readPageQuery(request);
      const query = request.query as AllLogQuery;
      const filter = await readAdministratorFilter(query);
      if (filter === undefined) {
        sendSuccess(response, { items: [], next_cursor: null, page_size: size });
        return;
      }
      const after = readCursor(query.cursor);
      // One row more than the page tells whether another page follows, without counting the whole log.
      const rows = await listUsageLogsByCursor(db, filter, { limit: size + 1, ...(after ? { after } : {}) });
      const pageRows = rows.slice(0, size);
      const last = pageRows[pageRows.length - 1];
      sendSuccess(response, {
        items: await withUsernames(pageRows),
        next_cursor: rows.length > size && last ? `${last.createdTime}.${last.id}` : null,
        page_size: size,
      });
    },

    async exportLogs(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const filter = await readAdministratorFilter(request.query as ExportLogQuery);
      await writeUsageLogCsv(response, async (after, limit) =>
        filter === undefined
          ? []
          : withUsernames(await listUsageLogsByCursor(db, filter, { limit, ...(after ? { after } : {}) })),
      );
    },

    async getLog(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const row = await findUsageLogById(db, Number(readPathParameter(request, "id")));
      if (row === undefined) throw new NotFoundError("Usage log row does not exist.");
      const [view] = await withUsernames([row]);
      const channel = row.channelId === null ? null : await findChannelById(db, row.channelId);
      sendSuccess(response, { ...view!, channel_name: channel?.name ?? null });
    },

    async getLogStatistics(request, response) {
      const user = getAuthenticatedUser(response);
      const query = request.query as StatQuery;
      const everyone = query.scope === "all";
      const userIdFilter = readInteger(query.user_id);
      if (everyone || userIdFilter !== undefined) assertAdministrator(user);
      const granularity = query.granularity === "hour" ? "hour" : "day";
      const range = resolveStatisticsRange(
        granularity,
        readInteger(query.start_time),
        readInteger(query.end_time),
        context.now(),
      );
      const tokenId = readInteger(query.token_id);
      const buckets = await aggregateUsageRollups(
        db,
        {
          userId: everyone ? userIdFilter : user.id,
          ...(tokenId === undefined ? {} : { tokenId }),
          ...(typeof query.model === "string" ? { model: query.model } : {}),
          startHour: range.start,
          endHour: range.end,
        },
        granularity === "hour" ? HOUR_SECONDS : 86_400,
      );
      sendSuccess(response, summarizeUsage(granularity, range, buckets));
    },

    async listUsageByUser(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const query = request.query as UsageByUserQuery;
      const range = resolveStatisticsRange(
        "day",
        readInteger(query.start_time),
        readInteger(query.end_time),
        context.now(),
      );
      const rows = await aggregateUsageByUser(
        db,
        { startHour: range.start, endHour: range.end },
        readInteger(query.limit) ?? 10,
      );
      const usernames = await listUsernamesByIds(
        db,
        rows.map((row) => row.userId),
      );
      sendSuccess(response, {
        start_time: range.start,
        end_time: range.end,
        items: rows.map((row) => ({
          user_id: row.userId,
          username: usernames.get(row.userId) ?? "",
          requests: row.requests,
          errors: row.errors,
          prompt_tokens: row.promptTokens,
          completion_tokens: row.completionTokens,
          cached_tokens: row.cachedTokens,
          cache_write_tokens: row.cacheWriteTokens,
          quota: row.quota,
        })),
      });
    },
  };
}

const maximumRangeSeconds = { day: 400 * 86_400, hour: 31 * 86_400 } as const;

/** The asked range, widened to whole UTC hours: the rollups hold hours, not seconds. */
function resolveStatisticsRange(
  granularity: "day" | "hour",
  startTime: number | undefined,
  endTime: number | undefined,
  now: number,
): { start: number; end: number } {
  const end = endTime ?? now + 1;
  const start = startTime ?? end - (granularity === "hour" ? 86_400 : 7 * 86_400);
  if (start >= end) throw new InvalidRequestError("start_time must be before end_time");
  if (end - start > maximumRangeSeconds[granularity]) {
    throw new InvalidRequestError(
      `time range too long: at most ${granularity === "hour" ? "31 days by hour" : "400 days by day"}`,
    );
  }
  return {
    start: start - (start % HOUR_SECONDS),
    end: Math.ceil(end / HOUR_SECONDS) * HOUR_SECONDS,
  };
}

function toUsageLogFilter(
  userId: number | undefined,
  query: Pick<SelfLogQuery, "token_id" | "model" | "start_time" | "end_time"> & { request_id?: string },
): UsageLogFilter {
  const filter: UsageLogFilter = { userId };
  const tokenId = readInteger(query.token_id);
  const startTime = readInteger(query.start_time);
  const endTime = readInteger(query.end_time);
  if (tokenId !== undefined) filter.tokenId = tokenId;
  if (typeof query.model === "string") filter.model = query.model;
  if (typeof query.request_id === "string") filter.requestId = query.request_id;
  if (startTime !== undefined) filter.startTime = startTime;
  // The spec's end_time is exclusive, the store's inclusive; times are whole seconds.
  if (endTime !== undefined) filter.endTime = endTime - 1;
  return filter;
}

/** `<created_time>.<id>` of the last row of the page before; the validator has checked the pattern. */
function readCursor(value: unknown): UsageLogPosition | undefined {
  if (typeof value !== "string") return undefined;
  const [createdTime, id] = value.split(".").map(Number);
  return createdTime === undefined || id === undefined ? undefined : { createdTime, id };
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
    group: row.group,
    request_id: row.requestId,
    is_stream: row.isStream,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    cached_tokens: row.cachedTokens,
    cache_write_tokens: row.cacheWriteTokens,
    reasoning_tokens: row.reasoningTokens,
    quota: row.quota,
    latency_ms: row.latencyMs,
    status: row.status,
    ...(row.status === "error" && row.errorMessage !== null ? { error_message: row.errorMessage } : {}),
  };
}
