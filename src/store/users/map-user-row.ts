import type { Selectable } from "kysely";
import type { UsersTable } from "../database-schema.js";
import { parseGroupList } from "./parse-group-list.js";
import type { UserRecord } from "./user-record.js";

export function mapUserRow(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    username: row.username,
    passwordHash: row.password_hash,
    displayName: row.display_name,
    role: row.role,
    group: row.group_name,
    status: row.status,
    accessTokenHash: row.access_token_hash,
    accessTokenEncrypted: row.access_token_encrypted,
    createdTime: row.created_time,
    quota: row.quota,
    usedQuota: row.used_quota,
    quotaUnlimited: row.quota_unlimited === 1,
    allowedGroups: parseGroupList(row.allowed_groups),
  };
}
