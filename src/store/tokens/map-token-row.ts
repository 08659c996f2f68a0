import type { Selectable } from "kysely";
import type { TokensTable } from "../database-schema.js";
import type { TokenRecord } from "./token-record.js";

export function mapTokenRow(row: Selectable<TokensTable>): TokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    keyHash: row.key_hash,
    keyEncrypted: row.key_encrypted,
    status: row.status,
    remainQuota: row.remain_quota,
    usedQuota: row.used_quota,
    unlimitedQuota: row.unlimited_quota === 1,
    modelLimitsEnabled: row.model_limits_enabled === 1,
    modelLimits: row.model_limits,
    allowIps: row.allow_ips,
    group: row.group_name,
    crossGroupRetry: row.cross_group_retry === 1,
    rpmLimit: row.rpm_limit,
    tpmLimit: row.tpm_limit,
    expiredTime: row.expired_time,
    createdTime: row.created_time,
    accessedTime: row.accessed_time,
  };
}
