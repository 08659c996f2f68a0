import type { Selectable } from "kysely";
import type { ChannelsTable } from "../database-schema.js";
import type { ChannelRecord } from "./channel-record.js";

export function mapChannelRow(row: Selectable<ChannelsTable>): ChannelRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    baseUrl: row.base_url,
    keysEncrypted: row.keys_encrypted,
    models: JSON.parse(row.models) as string[],
    modelMapping: JSON.parse(row.model_mapping) as Record<string, string>,
    groups: JSON.parse(row.groups) as string[],
    priority: row.priority,
    weight: row.weight,
    enabled: row.enabled === 1,
    source: row.source,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    createdTime: row.created_time,
  };
}
