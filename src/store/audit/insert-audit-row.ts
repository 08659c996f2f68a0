import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface InsertAuditRowInput {
  actorUserId: number | null;
  action: string;
  target: string;
  /** the object before the change, secrets already left out; undefined for a creation */
  before?: unknown;
  /** the object after the change, secrets already left out; undefined for a deletion */
  after?: unknown;
  createdTime: number;
}

export async function insertAuditRow(db: Kysely<Database>, input: InsertAuditRowInput): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor_user_id: input.actorUserId,
      action: input.action,
      target: input.target,
      before_json: input.before === undefined ? null : JSON.stringify(input.before),
      after_json: input.after === undefined ? null : JSON.stringify(input.after),
      created_time: input.createdTime,
    })
    .execute();
}
