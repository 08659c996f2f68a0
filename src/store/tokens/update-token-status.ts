import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface UpdateTokenStatusOptions {
  /** Change the status only while it is this one (for example expire only enabled tokens). */
  onlyFromStatus?: number;
}

/**
 * Sets a token's status without an owner check: for the gateway's own transitions
 * (expiry, quota exhaustion). Returns whether a row changed.
 */
export async function updateTokenStatus(
  db: Kysely<Database>,
  tokenId: number,
  status: number,
  options: UpdateTokenStatusOptions = {},
): Promise<boolean> {
  let query = db.updateTable("tokens").set({ status }).where("id", "=", tokenId);
  if (options.onlyFromStatus !== undefined) {
    query = query.where("status", "=", options.onlyFromStatus);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
