import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { userStatus } from "./user-record.js";

/** Enabled root accounts other than this one: the last of them must keep its role and status. */
export async function countOtherEnabledRoots(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((expression) => expression.fn.countAll<number | string>().as("total"))
    .where("role", "=", "root")
    .where("status", "=", userStatus.enabled)
    .where("id", "!=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * The soft deletion: the account keeps its row (its history points at it) but is marked deleted and loses its
 * access token. Returns false when there is no such account left to delete.
 */
export async function markUserDeleted(db: Kysely<Database>, userId: number): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ status: userStatus.deleted, access_token_hash: null, access_token_encrypted: null })
    .where("id", "=", userId)
    .where("status", "!=", userStatus.deleted)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A new password hash; with `revokeAccessToken` the user signs in again. Returns false for no such user. */
export async function setUserPasswordById(
  db: Kysely<Database>,
  userId: number,
  passwordHash: string,
  options: { revokeAccessToken: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({
      password_hash: passwordHash,
      ...(options.revokeAccessToken ? { access_token_hash: null, access_token_encrypted: null } : {}),
    })
    .where("id", "=", userId)
    .where("status", "!=", userStatus.deleted)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
