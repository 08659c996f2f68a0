import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { toChannelInsertRow } from "./channel-input.js";
import type { ChannelInput } from "./channel-input.js";
import type { ChannelRecord } from "./channel-record.js";
import { mapChannelRow } from "./map-channel-row.js";

/**
 * Creates or replaces the `config` channel of this name, keeping its id (so usage logs still
 * point at it) and its original created_time.
 */
export async function upsertConfigChannel(db: Kysely<Database>, input: ChannelInput): Promise<ChannelRecord> {
  const row = await db
    .insertInto("channels")
    .values(toChannelInsertRow(input, "config"))
    .onConflict((conflict) =>
      conflict.columns(["source", "name"]).doUpdateSet((expression) => ({
        type: expression.ref("excluded.type"),
        base_url: expression.ref("excluded.base_url"),
        keys_encrypted: expression.ref("excluded.keys_encrypted"),
        models: expression.ref("excluded.models"),
        model_mapping: expression.ref("excluded.model_mapping"),
        groups: expression.ref("excluded.groups"),
        priority: expression.ref("excluded.priority"),
        weight: expression.ref("excluded.weight"),
        enabled: expression.ref("excluded.enabled"),
        settings: expression.ref("excluded.settings"),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapChannelRow(row);
}
