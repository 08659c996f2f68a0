import type { UserRecord } from "../store/users/user-record.js";
import type { User } from "../tokens/management-types.js";

export function toUserView(user: UserRecord): User {
  return {
    id: user.id,
    username: user.username,
    display_name: user.displayName,
    role: user.role,
    group: user.group,
    status: user.status as User["status"],
    created_time: user.createdTime,
    quota: user.quota,
    used_quota: user.usedQuota,
    quota_unlimited: user.quotaUnlimited,
    allowed_groups: user.allowedGroups,
  };
}
