import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { canNameStoredRow } from "../storable-text.js";

/** Where an upstream object made by a Responses call lives: the channel and which of its keys made it. */
export interface ResponseRoute {
  upstreamId: string;
  channelId: number;
  keyIndex: number;
  /** epoch milliseconds */
  createdTime: number;
}

/**
 * Records where the given upstream ids were made. An id seen again keeps its first row: an upstream id names one
 * object on one account, so a repeat (a stream's id announced twice) changes nothing.
 */
export async function recordResponseRoutes(db: Kysely<Database>, routes: readonly ResponseRoute[]): Promise<void> {
  if (routes.length === 0) return;
  await db
    .insertInto("response_routes")
    .values(
      routes.map((route) => ({
        upstream_id: route.upstreamId,
        channel_id: route.channelId,
        key_index: route.keyIndex,
        created_time: route.createdTime,
      })),
    )
    .onConflict((conflict) => conflict.column("upstream_id").doNothing())
    .execute();
}

/** The routes of the given ids made at or after `notBefore` (older rows are past their retention), by id. */
export async function findResponseRoutes(
  db: Kysely<Database>,
  upstreamIds: readonly string[],
  notBefore: number,
): Promise<Map<string, ResponseRoute>> {
  const found = new Map<string, ResponseRoute>();
  const wanted = [...new Set(upstreamIds)].filter(canNameStoredRow);
  if (wanted.length === 0) return found;
  const rows = await db
    .selectFrom("response_routes")
    .select(["upstream_id", "channel_id", "key_index", "created_time"])
    .where("upstream_id", "in", wanted)
    .where("created_time", ">=", notBefore)
    .execute();
  for (const row of rows) {
    found.set(row.upstream_id, {
      upstreamId: row.upstream_id,
      channelId: Number(row.channel_id),
      keyIndex: Number(row.key_index),
      createdTime: Number(row.created_time),
    });
  }
  return found;
}

/** Deletes the routes made before `before` (past their retention); returns how many went. */
export async function deleteResponseRoutesBefore(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db.deleteFrom("response_routes").where("created_time", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
