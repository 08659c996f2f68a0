import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface UserWallet {
  quota: number;
  usedQuota: number;
  unlimited: boolean;
}

/** The user's wallet as stored now (null when the user does not exist). */
export async function findUserWallet(db: Kysely<Database>, userId: number): Promise<UserWallet | null> {
  const row = await db
    .selectFrom("users")
    .select(["quota", "used_quota", "quota_unlimited"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return row === undefined
    ? null
    : { quota: row.quota, usedQuota: row.used_quota, unlimited: row.quota_unlimited === 1 };
}
