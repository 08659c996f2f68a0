import type { Response } from "express";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { UserRecord, UserRole } from "../store/users/user-record.js";

// The authentication middlewares leave who is calling in response.locals; these read it back typed.

export function setAuthenticatedUser(response: Response, user: UserRecord): void {
  response.locals.user = user;
}

export function getAuthenticatedUser(response: Response): UserRecord {
  const user = response.locals.user as UserRecord | undefined;
  if (!user) throw new Error("getAuthenticatedUser called on a route without user authentication");
  return user;
}

/** What the relay needs of an API key's owner: where it routes, what it may pick, and whether its wallet limits. */
export interface TokenOwner {
  group: string;
  allowedGroups: readonly string[];
  role: UserRole;
  walletUnlimited: boolean;
}

export function setAuthenticatedToken(
  response: Response,
  token: TokenRecord,
  clientIp: string,
  owner: TokenOwner,
): void {
  response.locals.token = token;
  response.locals.clientIp = clientIp;
  response.locals.userGroup = owner.group;
  response.locals.tokenOwner = owner;
}

/** The key owner as authentication read it (null on routes without API key authentication). */
export function getAuthenticatedTokenOwner(response: Response): TokenOwner | null {
  return (response.locals.tokenOwner as TokenOwner | undefined) ?? null;
}

/** The key owner's group: where a token with an empty group routes and bills. */
export function getAuthenticatedUserGroup(response: Response): string {
  return (response.locals.userGroup as string | undefined) ?? "default";
}

export function getAuthenticatedToken(response: Response): TokenRecord {
  const token = response.locals.token as TokenRecord | undefined;
  if (!token) throw new Error("getAuthenticatedToken called on a route without API key authentication");
  return token;
}
