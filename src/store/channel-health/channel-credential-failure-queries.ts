import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface CredentialFailure {
  channelId: number;
  /** `wholeChannel` (-1) or the key's position, as in channel_health */
  keyIndex: number;
  /** unix seconds */
  failedTime: number;
  /** unix seconds: failures at or before it no longer count, and go */
  windowStart: number;
}

/**
 * Records one failure and answers how many the channel or key has within the window, every instance's together. One
 * transaction, so two instances' failures at the same moment are both counted by the later of them.
 */
export async function countCredentialFailure(db: Kysely<Database>, failure: CredentialFailure): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    await transaction
      .deleteFrom("channel_credential_failures")
      .where("channel_id", "=", failure.channelId)
      .where("key_index", "=", failure.keyIndex)
      .where("failed_time", "<=", failure.windowStart)
      .execute();
    await transaction
      .insertInto("channel_credential_failures")
      .values({ channel_id: failure.channelId, key_index: failure.keyIndex, failed_time: failure.failedTime })
      .execute();
    const counted = await transaction
      .selectFrom("channel_credential_failures")
      .select((expression) => expression.fn.countAll<number | string>().as("failures"))
      .where("channel_id", "=", failure.channelId)
      .where("key_index", "=", failure.keyIndex)
      .executeTakeFirstOrThrow();
    return Number(counted.failures);
  });
}

/** Forgets the failures of a channel or key: it was taken out, put back, or it answered. */
export async function clearCredentialFailures(
  db: Kysely<Database>,
  channelId: number,
  keyIndex: number,
): Promise<void> {
  await db
    .deleteFrom("channel_credential_failures")
    .where("channel_id", "=", channelId)
    .where("key_index", "=", keyIndex)
    .execute();
}
