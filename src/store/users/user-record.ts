export type UserRole = "user" | "admin" | "root";

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string;
  displayName: string;
  role: UserRole;
  group: string;
  /** 1 enabled, 2 disabled */
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
