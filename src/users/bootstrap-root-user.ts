import crypto from "node:crypto";
import { isUniqueViolation } from "../channels/is-unique-violation.js";
import type { GatewayContext } from "../gateway-context.js";
import { hashPassword } from "../keys/hash-password.js";
import { findUserByUsername } from "../store/users/find-user-by-username.js";
import { insertUser } from "../store/users/insert-user.js";
import { setUserAccessToken } from "../store/users/set-user-access-token.js";

export const rootUsername = "root";

/**
 * With GATEWAY_ADMIN_TOKEN set, the root user exists and that value is its access token (for bootstrapping and
 * automation). Its password is random until an operator sets one with the CLI. Several instances starting at once
 * on an empty database all try to create it: the first insert wins, and the others seat the token on its row.
 */
export async function bootstrapRootUser(context: GatewayContext, adminToken: string): Promise<void> {
  const accessToken = {
    accessTokenHash: context.keyCipher.hash(adminToken),
    accessTokenEncrypted: context.keyCipher.encrypt(adminToken),
  };
  const seatToken = async (): Promise<boolean> => {
    const existing = await findUserByUsername(context.database.db, rootUsername);
    if (!existing) return false;
    if (existing.accessTokenHash !== accessToken.accessTokenHash)
      await setUserAccessToken(context.database.db, existing.id, accessToken);
    return true;
  };
  if (await seatToken()) return;
  try {
    await insertUser(context.database.db, {
      username: rootUsername,
      passwordHash: await hashPassword(crypto.randomBytes(24).toString("base64url")),
      displayName: "Root",
      role: "root",
      createdTime: context.now(),
      ...accessToken,
    });
  } catch (error) {
    // Another instance created root between the look-up and the insert.
    if (!isUniqueViolation(error) || !(await seatToken())) throw error;
  }
}
