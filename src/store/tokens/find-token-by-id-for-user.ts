import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

/** Another user's token is reported as not found (null), never as forbidden. */
export async function findTokenByIdForUser(
  db: Kysely<Database>,
  tokenId: number,
  userId: number,
): Promise<TokenRecord | null> {
  const row = await db
    .selectFrom("tokens")
    .selectAll()
    .where("id", "=", tokenId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row === undefined ? null : mapTokenRow(row);
}
