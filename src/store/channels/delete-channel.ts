import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface DeleteChannelOptions {
  /** Delete only a channel of this source (the admin API passes `api`). */
  onlySource?: "config" | "api";
}

/** Returns whether a channel was deleted. */
export async function deleteChannel(
  db: Kysely<Database>,
  channelId: number,
  options: DeleteChannelOptions = {},
): Promise<boolean> {
  let query = db.deleteFrom("channels").where("id", "=", channelId);
  if (options.onlySource !== undefined) {
    query = query.where("source", "=", options.onlySource);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
