import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** The key_index of a row about the whole channel rather than one of its keys. */
export const wholeChannel = -1;

export type ChannelHealthState = "auto_disabled" | "disabled";

export interface ChannelHealthRecord {
  channelId: number;
  /** `wholeChannel` (-1) or the position of the key in the channel's key list */
  keyIndex: number;
  state: ChannelHealthState;
  reason: string;
  upstreamStatus: number | null;
  /** unix seconds */
  changedTime: number;
}

export async function listChannelHealth(db: Kysely<Database>): Promise<ChannelHealthRecord[]> {
  const rows = await db.selectFrom("channel_health").selectAll().orderBy("channel_id").orderBy("key_index").execute();
  return rows.map((row) => ({
    channelId: Number(row.channel_id),
    keyIndex: row.key_index,
    state: row.state as ChannelHealthState,
    reason: row.reason,
    upstreamStatus: row.upstream_status,
    changedTime: Number(row.changed_time),
  }));
}

function toRow(record: ChannelHealthRecord) {
  return {
    channel_id: record.channelId,
    key_index: record.keyIndex,
    state: record.state,
    reason: record.reason,
    upstream_status: record.upstreamStatus,
    changed_time: record.changedTime,
  };
}

/**
 * Takes a channel or key out unless it already is: true only for the one caller (of any instance) whose insert
 * made the transition, so a transition is announced once; an administrator's `disabled` is never overwritten.
 */
export async function insertChannelHealthIfAbsent(db: Kysely<Database>, record: ChannelHealthRecord): Promise<boolean> {
  const result = await db
    .insertInto("channel_health")
    .values(toRow(record))
    .onConflict((conflict) => conflict.columns(["channel_id", "key_index"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** An administrator's decision replaces whatever state the channel or key had. */
export async function upsertChannelHealth(db: Kysely<Database>, record: ChannelHealthRecord): Promise<void> {
  const row = toRow(record);
  await db
    .insertInto("channel_health")
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(["channel_id", "key_index"]).doUpdateSet({
        state: row.state,
        reason: row.reason,
        upstream_status: row.upstream_status,
        changed_time: row.changed_time,
      }),
    )
    .execute();
}

/**
 * Puts a channel or key back; with `onlyState` only from that state (a probe must not undo an administrator's
 * decision). True only for the caller whose delete removed the row: that caller announces the transition.
 */
export async function deleteChannelHealth(
  db: Kysely<Database>,
  channelId: number,
  keyIndex: number,
  onlyState?: ChannelHealthState,
): Promise<boolean> {
  let query = db.deleteFrom("channel_health").where("channel_id", "=", channelId).where("key_index", "=", keyIndex);
  if (onlyState !== undefined) query = query.where("state", "=", onlyState);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A channel's keys were replaced or the channel deleted: positions no longer name the same keys. */
export async function deleteChannelHealthRows(
  db: Kysely<Database>,
  channelId: number,
  options: { keysOnly: boolean },
): Promise<void> {
  let query = db.deleteFrom("channel_health").where("channel_id", "=", channelId);
  if (options.keysOnly) query = query.where("key_index", ">=", 0);
  await query.execute();
}
