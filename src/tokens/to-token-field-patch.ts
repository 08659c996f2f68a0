import { parseAllowList } from "../auth/ip/parse-allow-list.js";
import type { TokenPatch } from "../store/tokens/update-token.js";
import type { CreateTokenRequest } from "./management-types.js";

type TokenFields = Omit<CreateTokenRequest, "name" | "count">;

/**
 * The creation fields as stored: model_limits arrives as an array and is kept comma-separated; allow_ips is
 * checked entry by entry (a bad entry is a 400 naming it) and kept as the user wrote it, trimmed.
 */
export function toTokenFieldPatch(fields: TokenFields): TokenPatch {
  const patch: TokenPatch = {};
  if (fields.expired_time !== undefined) patch.expiredTime = fields.expired_time;
  if (fields.remain_quota !== undefined) patch.remainQuota = fields.remain_quota;
  if (fields.unlimited_quota !== undefined) patch.unlimitedQuota = fields.unlimited_quota;
  if (fields.model_limits_enabled !== undefined) patch.modelLimitsEnabled = fields.model_limits_enabled;
  if (fields.model_limits !== undefined) {
    patch.modelLimits = fields.model_limits
      .map((model) => model.trim())
      .filter((model) => model.length > 0)
      .join(",");
  }
  if (fields.allow_ips !== undefined) {
    const allowIps = fields.allow_ips.trim();
    parseAllowList(allowIps);
    patch.allowIps = allowIps;
  }
  // Empty stays empty: it means the owner's group (resolved when routing), not the group named "default".
  if (fields.group !== undefined) patch.group = fields.group.trim();
  if (fields.cross_group_retry !== undefined) patch.crossGroupRetry = fields.cross_group_retry;
  if (fields.rpm_limit !== undefined) patch.rpmLimit = fields.rpm_limit;
  if (fields.tpm_limit !== undefined) patch.tpmLimit = fields.tpm_limit;
  return patch;
}
