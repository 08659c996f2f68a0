import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface UserAccessToken {
  /** keyed hash used for lookup; null revokes the access token */
  accessTokenHash: string | null;
  accessTokenEncrypted: string | null;
}

/** Replaces (or, with nulls, revokes) a user's access token. Returns false when the user does not exist. */
export async function setUserAccessToken(
  db: Kysely<Database>,
  userId: number,
  accessToken: UserAccessToken,
): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({
      access_token_hash: accessToken.accessTokenHash,
      access_token_encrypted: accessToken.accessTokenEncrypted,
    })
    .where("id", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
