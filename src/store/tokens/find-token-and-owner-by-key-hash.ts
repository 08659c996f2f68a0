import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

export interface TokenWithOwner {
  token: TokenRecord;
  /** The owner's group: a token whose group is empty routes and bills in it. */
  ownerGroup: string;
  /** 1 enabled, 2 disabled: a disabled user's keys are refused. */
  ownerStatus: number;
}

/** The token a presented key belongs to, with what API key authentication needs of its owner, in one query. */
export async function findTokenAndOwnerByKeyHash(
  db: Kysely<Database>,
  keyHash: string,
): Promise<TokenWithOwner | null> {
  const row = await db
    .selectFrom("tokens")
    .innerJoin("users", "users.id", "tokens.user_id")
    .selectAll("tokens")
    .select(["users.group_name as owner_group", "users.status as owner_status"])
    .where("tokens.key_hash", "=", keyHash)
    .executeTakeFirst();
  if (row === undefined) return null;
  const { owner_group: ownerGroup, owner_status: ownerStatus, ...tokenRow } = row;
  return { token: mapTokenRow(tokenRow), ownerGroup, ownerStatus };
}
