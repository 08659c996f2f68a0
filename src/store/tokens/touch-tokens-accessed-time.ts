import { type Kysely, sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import type { Database } from "../database-schema.js";

/**
 * Records last access for many tokens in one statement; callers buffer touches and flush them
 * periodically instead of writing on every request. Returns how many rows changed.
 *
 * On PostgreSQL the rows are locked in id order first: the quota ledger's batches lock many tokens in that order,
 * and an update taking them in scan order could wait on a batch that waits on it (a deadlock, one of the two
 * aborted). SQLite has one writer and no row locks.
 */
export async function touchTokensAccessedTime(
  db: Kysely<Database>,
  tokenIds: readonly number[],
  accessedTime: number,
  dialect: DatabaseDialect = "sqlite",
): Promise<number> {
  if (tokenIds.length === 0) {
    return 0;
  }
  const ids = [...new Set(tokenIds)];
  const result = await db
    .updateTable("tokens")
    .set({ accessed_time: accessedTime })
    .where((expression) =>
      dialect === "postgres"
        ? expression(
            "id",
            "in",
            sql<number>`(select id from tokens where id = any(${ids}::bigint[]) and accessed_time < ${accessedTime} order by id for update)`,
          )
        : expression("id", "in", ids),
    )
    // Out-of-order flushes must not move the time backwards.
    .where("accessed_time", "<", accessedTime)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
