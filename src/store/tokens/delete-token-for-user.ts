import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** Returns false when the token does not exist or belongs to another user. */
export async function deleteTokenForUser(db: Kysely<Database>, tokenId: number, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom("tokens")
    .where("id", "=", tokenId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
