import type { Insertable } from "kysely";
import type { TokensTable } from "../database-schema.js";

export interface InsertTokenInput {
  userId: number;
  name: string;
  keyHash: string;
  keyEncrypted: string;
  /** default 1 (enabled) */
  status?: number;
  /** default 0 */
  remainQuota?: number;
  unlimitedQuota?: boolean;
  modelLimitsEnabled?: boolean;
  modelLimits?: string;
  allowIps?: string;
  /** default '' (the owner's group) */
  group?: string;
  crossGroupRetry?: boolean;
  /** default 0 (no limit) */
  rpmLimit?: number;
  /** default 0 (no limit) */
  tpmLimit?: number;
  /** default -1 (never expires) */
  expiredTime?: number;
  createdTime: number;
  /** default createdTime */
  accessedTime?: number;
}

export function toTokenInsertRow(input: InsertTokenInput): Insertable<TokensTable> {
  return {
    user_id: input.userId,
    name: input.name,
    key_hash: input.keyHash,
    key_encrypted: input.keyEncrypted,
    status: input.status ?? 1,
    remain_quota: input.remainQuota ?? 0,
    used_quota: 0,
    unlimited_quota: input.unlimitedQuota ? 1 : 0,
    model_limits_enabled: input.modelLimitsEnabled ? 1 : 0,
    model_limits: input.modelLimits ?? "",
    allow_ips: input.allowIps ?? "",
    group_name: input.group ?? "",
    cross_group_retry: input.crossGroupRetry ? 1 : 0,
    rpm_limit: input.rpmLimit ?? 0,
    tpm_limit: input.tpmLimit ?? 0,
    expired_time: input.expiredTime ?? -1,
    created_time: input.createdTime,
    accessed_time: input.accessedTime ?? input.createdTime,
  };
}
