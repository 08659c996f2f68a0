import crypto from "node:crypto";
import type { GatewayContext } from "../gateway-context.js";
import { hashPassword } from "../keys/hash-password.js";
import { findUserByUsername } from "../store/users/find-user-by-username.js";
import { insertUser } from "../store/users/insert-user.js";
import { setUserAccessToken } from "../store/users/set-user-access-token.js";

export const rootUsername = "root";

/**
 * With GATEWAY_ADMIN_TOKEN set, the root user exists and that value is its access token (for bootstrapping and
 * automation). Its password is random until an operator sets one with the CLI.
 */
export async function bootstrapRootUser(context: GatewayContext, adminToken: string): Promise<void> {
  const accessToken = {
    accessTokenHash: context.keyCipher.hash(adminToken),
    accessTokenEncrypted: context.keyCipher.encrypt(adminToken),
  };
  const existing = await findUserByUsername(context.database.db, rootUsername);
  if (existing) {
    if (existing.accessTokenHash !== accessToken.accessTokenHash)
      await setUserAccessToken(context.database.db, existing.id, accessToken);
    return;
  }
  await insertUser(context.database.db, {
    username: rootUsername,
    passwordHash: await hashPassword(crypto.randomBytes(24).toString("base64url")),
    displayName: "Root",
    role: "root",
    createdTime: context.now(),
    ...accessToken,
  });
}
