import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/**
 * Records last access for many tokens in one statement; callers buffer touches and flush them
 * periodically instead of writing on every request. Returns how many rows changed.
 */
export async function touchTokensAccessedTime(
  db: Kysely<Database>,
  tokenIds: readonly number[],
  accessedTime: number,
): Promise<number> {
  if (tokenIds.length === 0) {
    return 0;
  }
  const result = await db
    .updateTable("tokens")
    .set({ accessed_time: accessedTime })
    .where("id", "in", [...new Set(tokenIds)])
    // Out-of-order flushes must not move the time backwards.
    .where("accessed_time", "<", accessedTime)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
