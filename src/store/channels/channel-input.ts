import type { Insertable } from "kysely";
import type { ChannelsTable } from "../database-schema.js";
import type { ChannelSource } from "./channel-record.js";

export interface ChannelInput {
  name: string;
  type: string;
  baseUrl: string;
  keysEncrypted: string;
  models: string[];
  /** default {} */
  modelMapping?: Record<string, string>;
  /** default ['default'] */
  groups?: string[];
  /** default 0 */
  priority?: number;
  /** default 1 */
  weight?: number;
  /** default true */
  enabled?: boolean;
  /** default {} */
  settings?: Record<string, unknown>;
  createdTime: number;
}

export function toChannelInsertRow(input: ChannelInput, source: ChannelSource): Insertable<ChannelsTable> {
  return {
    name: input.name,
    type: input.type,
    base_url: input.baseUrl,
    keys_encrypted: input.keysEncrypted,
    models: JSON.stringify(input.models),
    model_mapping: JSON.stringify(input.modelMapping ?? {}),
    groups: JSON.stringify(input.groups ?? ["default"]),
    priority: input.priority ?? 0,
    weight: input.weight ?? 1,
    enabled: input.enabled === false ? 0 : 1,
    source,
    settings: JSON.stringify(input.settings ?? {}),
    created_time: input.createdTime,
  };
}
