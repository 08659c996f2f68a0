import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";
import { parseGroupList } from "../users/parse-group-list.js";
import type { UserRole } from "../users/user-record.js";

export interface TokenWithOwner {
  token: TokenRecord;
  /** The owner's group: a token whose group is empty routes and bills in it. */
  ownerGroup: string;
  /** 1 enabled, 2 disabled: a disabled user's keys are refused. */
  ownerStatus: number;
  /** The owner's wallet does not limit spending: with an unlimited token, the request holds nothing. */
  ownerWalletUnlimited: boolean;
  ownerRole: UserRole;
  /** Groups the owner may use besides their default one (a token's group must be one of those the owner may use). */
  ownerAllowedGroups: string[];
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
    .select([
      "users.group_name as owner_group",
      "users.status as owner_status",
      "users.quota_unlimited as owner_wallet_unlimited",
      "users.role as owner_role",
      "users.allowed_groups as owner_allowed_groups",
    ])
    .where("tokens.key_hash", "=", keyHash)
    .executeTakeFirst();
  if (row === undefined) return null;
  const {
    owner_group: ownerGroup,
    owner_status: ownerStatus,
    owner_wallet_unlimited: ownerWalletUnlimited,
    owner_role: ownerRole,
    owner_allowed_groups: ownerAllowedGroups,
    ...tokenRow
  } = row;
  return {
    token: mapTokenRow(tokenRow),
    ownerGroup,
    ownerStatus,
    ownerWalletUnlimited: ownerWalletUnlimited === 1,
    ownerRole,
    ownerAllowedGroups: parseGroupList(ownerAllowedGroups),
  };
}
