import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapUserRow } from "./map-user-row.js";
import type { UserRecord } from "./user-record.js";

export async function findUserById(db: Kysely<Database>, userId: number): Promise<UserRecord | null> {
  const row = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  return row === undefined ? null : mapUserRow(row);
}
