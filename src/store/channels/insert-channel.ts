import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { toChannelInsertRow } from "./channel-input.js";
import type { ChannelInput } from "./channel-input.js";
import type { ChannelRecord, ChannelSource } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

export type { ChannelInput } from "./channel-input.js";

/** Inserts a channel (source `api` unless given); a duplicate name within a source fails on the unique constraint. */
export async function insertChannel(
  db: Kysely<Database>,
  input: ChannelInput,
  source: ChannelSource = "api",
): Promise<ChannelRecord> {
  const row = await db
    .insertInto("channels")
    .values(toChannelInsertRow(input, source))
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapChannelRow(row);
}
