import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface ChannelLastTestRecord {
  channelId: number;
  success: boolean;
  latencyMs: number;
  model: string;
  message: string;
  /** unix seconds */
  testedTime: number;
}

/** Replaces the channel's last test outcome. */
export async function saveChannelLastTest(db: Kysely<Database>, record: ChannelLastTestRecord): Promise<void> {
  const row = {
    channel_id: record.channelId,
    success: record.success ? 1 : 0,
    latency_ms: record.latencyMs,
    model: record.model,
    message: record.message,
    tested_time: record.testedTime,
  };
  await db
    .insertInto("channel_last_tests")
    .values(row)
    .onConflict((conflict) =>
      conflict.column("channel_id").doUpdateSet({
        success: row.success,
        latency_ms: row.latency_ms,
        model: row.model,
        message: row.message,
        tested_time: row.tested_time,
      }),
    )
    .execute();
}

/** The last tests of these channels, by channel id (channels never tested are absent). */
export async function listChannelLastTests(
  db: Kysely<Database>,
  channelIds: readonly number[],
): Promise<Map<number, ChannelLastTestRecord>> {
  const byChannel = new Map<number, ChannelLastTestRecord>();
  if (channelIds.length === 0) return byChannel;
  const rows = await db.selectFrom("channel_last_tests").selectAll().where("channel_id", "in", channelIds).execute();
  for (const row of rows) {
    byChannel.set(Number(row.channel_id), {
      channelId: Number(row.channel_id),
      success: row.success === 1,
      latencyMs: row.latency_ms,
      model: row.model,
      message: row.message,
      testedTime: Number(row.tested_time),
    });
  }
  return byChannel;
}
