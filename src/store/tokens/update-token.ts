import type { Kysely, Updateable } from "kysely";
import type { Database, TokensTable } from "../database-schema.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

/** Fields a user may change; absent fields keep their value. */
export interface TokenPatch {
  name?: string;
  status?: number;
  remainQuota?: number;
  unlimitedQuota?: boolean;
  modelLimitsEnabled?: boolean;
  modelLimits?: string;
  allowIps?: string;
  group?: string;
  crossGroupRetry?: boolean;
  rpmLimit?: number;
  tpmLimit?: number;
  expiredTime?: number;
}

/** Returns the updated token, or null when it does not exist or belongs to another user. */
export async function updateToken(
  db: Kysely<Database>,
  tokenId: number,
  userId: number,
  patch: TokenPatch,
): Promise<TokenRecord | null> {
  const changes: Updateable<TokensTable> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.status !== undefined) changes.status = patch.status;
  if (patch.remainQuota !== undefined) changes.remain_quota = patch.remainQuota;
  if (patch.unlimitedQuota !== undefined) changes.unlimited_quota = patch.unlimitedQuota ? 1 : 0;
  if (patch.modelLimitsEnabled !== undefined) changes.model_limits_enabled = patch.modelLimitsEnabled ? 1 : 0;
  if (patch.modelLimits !== undefined) changes.model_limits = patch.modelLimits;
  if (patch.allowIps !== undefined) changes.allow_ips = patch.allowIps;
  if (patch.group !== undefined) changes.group_name = patch.group;
  if (patch.crossGroupRetry !== undefined) changes.cross_group_retry = patch.crossGroupRetry ? 1 : 0;
  if (patch.rpmLimit !== undefined) changes.rpm_limit = patch.rpmLimit;
  if (patch.tpmLimit !== undefined) changes.tpm_limit = patch.tpmLimit;
  if (patch.expiredTime !== undefined) changes.expired_time = patch.expiredTime;

  const row = await db
    .updateTable("tokens")
    // An empty patch still needs a SET clause; assigning id to itself keeps it one statement.
    .set(Object.keys(changes).length === 0 ? (expression) => ({ id: expression.ref("id") }) : changes)
    .where("id", "=", tokenId)
    .where("user_id", "=", userId)
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? null : mapTokenRow(row);
}
