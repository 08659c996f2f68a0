import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { ChannelRecord } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

/** Every enabled channel, highest priority first: the relay's routing table is built from this. */
export async function listEnabledChannels(db: Kysely<Database>): Promise<ChannelRecord[]> {
  const rows = await db
    .selectFrom("channels")
    .selectAll()
    .where("enabled", "=", 1)
    .orderBy("priority", "desc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(mapChannelRow);
}
