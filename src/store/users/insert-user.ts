import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapUserRow } from "./map-user-row.js";
import type { UserRecord, UserRole } from "./user-record.js";

export interface InsertUserInput {
  username: string;
  passwordHash: string;
  displayName?: string;
  role?: UserRole;
  group?: string;
  status?: number;
  accessTokenHash?: string | null;
  accessTokenEncrypted?: string | null;
  createdTime: number;
  /** The wallet's first balance; with none given the wallet is unlimited (root, and accounts from before wallets). */
  quota?: number;
  allowedGroups?: string[];
}

export async function insertUser(db: Kysely<Database>, input: InsertUserInput): Promise<UserRecord> {
  const row = await db
    .insertInto("users")
    .values({
      username: input.username,
      password_hash: input.passwordHash,
      display_name: input.displayName ?? input.username,
      role: input.role ?? "user",
      group_name: input.group ?? "default",
      status: input.status ?? 1,
      access_token_hash: input.accessTokenHash ?? null,
      access_token_encrypted: input.accessTokenEncrypted ?? null,
      created_time: input.createdTime,
      quota: input.quota ?? 0,
      quota_unlimited: input.quota === undefined ? 1 : 0,
      allowed_groups: JSON.stringify(input.allowedGroups ?? []),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapUserRow(row);
}
