import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

/**
 * Every token of a user, newest first. Key search matches on the decrypted key, which the
 * database cannot see, so the search runs in memory over this list.
 */
export async function listAllTokensForUser(db: Kysely<Database>, userId: number): Promise<TokenRecord[]> {
  const rows = await db.selectFrom("tokens").selectAll().where("user_id", "=", userId).orderBy("id", "desc").execute();
  return rows.map(mapTokenRow);
}
