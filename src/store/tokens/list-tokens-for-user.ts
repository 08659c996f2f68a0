import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

/** Newest first, as the token list shows them. */
export async function listTokensForUser(
  db: Kysely<Database>,
  userId: number,
  page: PageWindow,
): Promise<TokenRecord[]> {
  const rows = await db
    .selectFrom("tokens")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(mapTokenRow);
}
