import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface StoredChannelHealthRules {
  disableAfterFailures: number;
  failureWindowSeconds: number;
  probeIntervalSeconds: number;
}

/** The rules an administrator set through the API, or undefined while the config file's apply. */
export async function readChannelHealthRules(db: Kysely<Database>): Promise<StoredChannelHealthRules | undefined> {
  const row = await db.selectFrom("channel_health_rules").selectAll().where("id", "=", 1).executeTakeFirst();
  if (!row) return undefined;
  return {
    disableAfterFailures: row.disable_after_failures,
    failureWindowSeconds: row.failure_window_seconds,
    probeIntervalSeconds: row.probe_interval_seconds,
  };
}

export async function saveChannelHealthRules(
  db: Kysely<Database>,
  rules: StoredChannelHealthRules,
  updatedTime: number,
): Promise<void> {
  const row = {
    disable_after_failures: rules.disableAfterFailures,
    failure_window_seconds: rules.failureWindowSeconds,
    probe_interval_seconds: rules.probeIntervalSeconds,
    updated_time: updatedTime,
  };
  await db
    .insertInto("channel_health_rules")
    .values({ id: 1, ...row })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(row))
    .execute();
}
