import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** Username by user id for the given ids (ids without a user are absent). */
export async function listUsernamesByIds(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["id", "username"]).where("id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
