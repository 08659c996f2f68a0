export type UserRole = "user" | "admin" | "root";

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string;
  displayName: string;
  role: UserRole;
  group: string;
  /** 1 enabled, 2 disabled, 3 deleted (userStatus) */
  status: number;
  accessTokenHash: string | null;
  accessTokenEncrypted: string | null;
  /** Unix seconds */
  createdTime: number;
  /** The wallet: units left to spend (ignored while `quotaUnlimited`). */
  quota: number;
  /** Units charged to the user's requests, over all their tokens. */
  usedQuota: number;
  quotaUnlimited: boolean;
  /** Groups the user may pick besides their default group (`group`). */
  allowedGroups: string[];
}

/** `users.status`: a deleted account stays in the table so its usage logs, top-ups and audit rows keep their owner. */
export const userStatus = { enabled: 1, disabled: 2, deleted: 3 } as const;
