import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** Deletes those of the ids that belong to the user; returns how many were deleted. */
export async function deleteTokensForUser(
  db: Kysely<Database>,
  tokenIds: readonly number[],
  userId: number,
): Promise<number> {
  if (tokenIds.length === 0) {
    return 0;
  }
  const result = await db
    .deleteFrom("tokens")
    .where("id", "in", [...new Set(tokenIds)])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
