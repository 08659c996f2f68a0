import type { Kysely, Updateable } from "kysely";
import type { ChannelsTable, Database } from "../database-schema.js";
import type { ChannelRecord } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

/** Fields that may change; absent fields keep their value. */
export interface ChannelPatch {
  name?: string;
  type?: string;
  baseUrl?: string;
  keysEncrypted?: string;
  models?: string[];
  modelMapping?: Record<string, string>;
  groups?: string[];
  priority?: number;
  weight?: number;
  enabled?: boolean;
  settings?: Record<string, unknown>;
}

export interface UpdateChannelOptions {
  /** Update only a channel of this source (the admin API passes `api`: config channels are read-only there). */
  onlySource?: "config" | "api";
}

/** Returns the updated channel, or null when no channel matched. */
export async function updateChannel(
  db: Kysely<Database>,
  channelId: number,
  patch: ChannelPatch,
  options: UpdateChannelOptions = {},
): Promise<ChannelRecord | null> {
  const changes: Updateable<ChannelsTable> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.type !== undefined) changes.type = patch.type;
  if (patch.baseUrl !== undefined) changes.base_url = patch.baseUrl;
  if (patch.keysEncrypted !== undefined) changes.keys_encrypted = patch.keysEncrypted;
  if (patch.models !== undefined) changes.models = JSON.stringify(patch.models);
  if (patch.modelMapping !== undefined) changes.model_mapping = JSON.stringify(patch.modelMapping);
  if (patch.groups !== undefined) changes.groups = JSON.stringify(patch.groups);
  if (patch.priority !== undefined) changes.priority = patch.priority;
  if (patch.weight !== undefined) changes.weight = patch.weight;
  if (patch.enabled !== undefined) changes.enabled = patch.enabled ? 1 : 0;
  if (patch.settings !== undefined) changes.settings = JSON.stringify(patch.settings);

  let query = db
    .updateTable("channels")
    // An empty patch still needs a SET clause; assigning id to itself keeps it one statement.
    .set(Object.keys(changes).length === 0 ? (expression) => ({ id: expression.ref("id") }) : changes)
    .where("id", "=", channelId);
  if (options.onlySource !== undefined) {
    query = query.where("source", "=", options.onlySource);
  }
  const row = await query.returningAll().executeTakeFirst();
  return row === undefined ? null : mapChannelRow(row);
}
