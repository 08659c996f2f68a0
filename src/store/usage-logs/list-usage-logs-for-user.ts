import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import { mapUsageLogRow } from "./map-usage-log-row.js";
import { applyUsageLogFilter } from "./usage-log-filter.js";
import type { UsageLogFilter } from "./usage-log-filter.js";
import type { UsageLogRecord } from "./usage-log-record.js";

export type { UsageLogFilter } from "./usage-log-filter.js";

/** Newest first. */
export async function listUsageLogsForUser(
  db: Kysely<Database>,
  filter: UsageLogFilter,
  page: PageWindow,
): Promise<UsageLogRecord[]> {
  const rows = await applyUsageLogFilter(db.selectFrom("usage_logs").selectAll(), filter)
    .orderBy("created_time", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(mapUsageLogRow);
}
