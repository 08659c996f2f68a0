import type { KeyCipher } from "../keys/create-key-cipher.js";
import { maskKey } from "../keys/mask-key.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { Token } from "./management-types.js";

/** A stored token as the management API shows it: the key masked, never whole. */
export function toTokenView(token: TokenRecord, keyCipher: KeyCipher): Token {
  return {
    id: token.id,
    user_id: token.userId,
    name: token.name,
    key: maskKey(keyCipher.decrypt(token.keyEncrypted)),
    status: token.status as Token["status"],
    remain_quota: token.remainQuota,
    used_quota: token.usedQuota,
    unlimited_quota: token.unlimitedQuota,
    model_limits_enabled: token.modelLimitsEnabled,
    model_limits: token.modelLimits,
    allow_ips: token.allowIps,
    group: token.group,
    cross_group_retry: token.crossGroupRetry,
    // Placeholder until the token store keeps the limits (the commit after the spec change).
    rpm_limit: 0,
    tpm_limit: 0,
    expired_time: token.expiredTime,
    created_time: token.createdTime,
    accessed_time: token.accessedTime,
  };
}
