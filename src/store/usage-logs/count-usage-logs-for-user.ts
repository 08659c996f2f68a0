import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { applyUsageLogFilter } from "./usage-log-filter.js";
import type { UsageLogFilter } from "./usage-log-filter.js";

export async function countUsageLogsForUser(db: Kysely<Database>, filter: UsageLogFilter): Promise<number> {
  const row = await applyUsageLogFilter(
    db.selectFrom("usage_logs").select((expression) => expression.fn.countAll<number>().as("count")),
    filter,
  ).executeTakeFirstOrThrow();
  return Number(row.count);
}
