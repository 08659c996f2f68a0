import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import { mapUserRow } from "./map-user-row.js";
import { type UserRecord, userStatus } from "./user-record.js";

/** One page of users, newest first, whose username or display name contains `keyword` (literally), with the total. */
export async function listUsers(
  db: Kysely<Database>,
  keyword: string | undefined,
  window: PageWindow,
): Promise<{ users: UserRecord[]; total: number }> {
  // Deleted accounts (status 3) stay in the table for their history but are no longer users to manage.
  let query = db.selectFrom("users").where("status", "!=", userStatus.deleted);
  if (keyword) {
    const pattern = `%${keyword.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    // Case-insensitive on both databases; `\` escapes the wildcards the keyword may contain.
    query = query.where(
      sql<boolean>`(lower(username) like lower(${pattern}) escape '\\' or lower(display_name) like lower(${pattern}) escape '\\')`,
    );
  }
  const [rows, counted] = await Promise.all([
    query.selectAll().orderBy("id", "desc").limit(window.limit).offset(window.offset).execute(),
    query.select((expression) => expression.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { users: rows.map(mapUserRow), total: Number(counted.total) };
}
