import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { ChannelRecord } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

export async function findChannelById(db: Kysely<Database>, channelId: number): Promise<ChannelRecord | null> {
  const row = await db.selectFrom("channels").selectAll().where("id", "=", channelId).executeTakeFirst();
  return row === undefined ? null : mapChannelRow(row);
}
