import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapUserRow } from "./map-user-row.js";
import type { UserRecord } from "./user-record.js";

export async function findUserByAccessTokenHash(
  db: Kysely<Database>,
  accessTokenHash: string,
): Promise<UserRecord | null> {
  const row = await db
    .selectFrom("users")
    .selectAll()
    .where("access_token_hash", "=", accessTokenHash)
    .executeTakeFirst();
  return row === undefined ? null : mapUserRow(row);
}
