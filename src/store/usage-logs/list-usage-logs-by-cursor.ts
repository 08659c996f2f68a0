import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapUsageLogRow } from "./map-usage-log-row.js";
import { applyUsageLogFilter, type UsageLogFilter } from "./usage-log-filter.js";
import type { UsageLogRecord } from "./usage-log-record.js";

/** Where a page starts: the last row of the page before it (time, then id, both descending). */
export interface UsageLogPosition {
  createdTime: number;
  id: number;
}

/**
 * Newest first (by time, then id), the rows after `after` when given: keyset paging, so page 10,000 of a log of
 * millions costs what page 1 does (an OFFSET would read and throw away every row before it).
 */
export async function listUsageLogsByCursor(
  db: Kysely<Database>,
  filter: UsageLogFilter,
  page: { limit: number; after?: UsageLogPosition },
): Promise<UsageLogRecord[]> {
  let query = applyUsageLogFilter(db.selectFrom("usage_logs").selectAll(), filter);
  const { after } = page;
  if (after !== undefined)
    query = query.where((expression) =>
      expression.or([
        expression("created_time", "<", after.createdTime),
        expression.and([expression("created_time", "=", after.createdTime), expression("id", "<", after.id)]),
      ]),
    );
  const rows = await query.orderBy("created_time", "desc").orderBy("id", "desc").limit(page.limit).execute();
  return rows.map(mapUsageLogRow);
}

export async function findUsageLogById(db: Kysely<Database>, id: number): Promise<UsageLogRecord | undefined> {
  const row = await db.selectFrom("usage_logs").selectAll().where("id", "=", id).executeTakeFirst();
  return row === undefined ? undefined : mapUsageLogRow(row);
}
