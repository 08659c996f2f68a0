import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import type { AuditRecord } from "./audit-record.js";

export interface AuditFilter {
  action?: string;
  actorUserId?: number;
}

/** One page of the audit log, newest first, with the total matching the filter. */
export async function listAuditRows(
  db: Kysely<Database>,
  filter: AuditFilter,
  window: PageWindow,
): Promise<{ rows: AuditRecord[]; total: number }> {
  let query = db.selectFrom("audit_log");
  if (filter.action !== undefined) query = query.where("action", "=", filter.action);
  if (filter.actorUserId !== undefined) query = query.where("actor_user_id", "=", filter.actorUserId);
  const [rows, counted] = await Promise.all([
    query.selectAll().orderBy("id", "desc").limit(window.limit).offset(window.offset).execute(),
    query.select((expression) => expression.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      actorUserId: row.actor_user_id,
      action: row.action,
      target: row.target,
      before: row.before_json === null ? null : (JSON.parse(row.before_json) as unknown),
      after: row.after_json === null ? null : (JSON.parse(row.after_json) as unknown),
      createdTime: row.created_time,
    })),
    total: Number(counted.total),
  };
}
