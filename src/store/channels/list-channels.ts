import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";
import type { ChannelRecord } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

/** By id, as the admin list shows them. */
export async function listChannels(db: Kysely<Database>, page: PageWindow): Promise<ChannelRecord[]> {
  const rows = await db
    .selectFrom("channels")
    .selectAll()
    .orderBy("id", "asc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(mapChannelRow);
}
