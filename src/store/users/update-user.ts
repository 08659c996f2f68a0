import type { Kysely, Updateable } from "kysely";
import type { Database, UsersTable } from "../database-schema.js";
import { mapUserRow } from "./map-user-row.js";
import type { UserRecord } from "./user-record.js";

export interface UserPatch {
  displayName?: string;
  group?: string;
  allowedGroups?: string[];
  quotaUnlimited?: boolean;
  status?: number;
  role?: UserRecord["role"];
}

/** Applies the given fields; the user as stored afterwards, or null when there is no such user. */
export async function updateUser(db: Kysely<Database>, userId: number, patch: UserPatch): Promise<UserRecord | null> {
  const values: Updateable<UsersTable> = {};
  if (patch.displayName !== undefined) values.display_name = patch.displayName;
  if (patch.group !== undefined) values.group_name = patch.group;
  if (patch.allowedGroups !== undefined) values.allowed_groups = JSON.stringify(patch.allowedGroups);
  if (patch.quotaUnlimited !== undefined) values.quota_unlimited = patch.quotaUnlimited ? 1 : 0;
  if (patch.status !== undefined) values.status = patch.status;
  if (patch.role !== undefined) values.role = patch.role;
  // Nothing to change (a body of unknown fields only): the user as stored.
  if (Object.keys(values).length === 0)
    return db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", userId)
      .executeTakeFirst()
      .then((row) => (row === undefined ? null : mapUserRow(row)));
  const row = await db.updateTable("users").set(values).where("id", "=", userId).returningAll().executeTakeFirst();
  return row === undefined ? null : mapUserRow(row);
}
