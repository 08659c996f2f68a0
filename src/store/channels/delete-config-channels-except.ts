import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/**
 * Removes the `config` channels whose names are not in `keptNames` (the ones dropped from the configuration
 * file since the last start); API channels are never touched. Returns how many were removed.
 */
export async function deleteConfigChannelsExcept(db: Kysely<Database>, keptNames: string[]): Promise<number> {
  let query = db.deleteFrom("channels").where("source", "=", "config");
  if (keptNames.length > 0) query = query.where("name", "not in", keptNames);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
