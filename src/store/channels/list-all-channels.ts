import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { ChannelRecord } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

/**
 * Every channel, enabled or not, highest priority first: the router indexes the enabled ones and still finds a
 * disabled one by id (an async task keeps polling the channel it was submitted to).
 */
export async function listAllChannels(db: Kysely<Database>): Promise<ChannelRecord[]> {
  const rows = await db.selectFrom("channels").selectAll().orderBy("priority", "desc").orderBy("id", "asc").execute();
  return rows.map(mapChannelRow);
}
