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
}
