import crypto from "node:crypto";
import { AuthenticationError } from "../errors/gateway-error.js";
import { shortenClientValue } from "../errors/shorten-client-value.js";
import type { GatewayContext } from "../gateway-context.js";
import { hashPassword } from "../keys/hash-password.js";
import { verifyPassword } from "../keys/verify-password.js";
import { findUserByUsername } from "../store/users/find-user-by-username.js";
import { setUserAccessToken } from "../store/users/set-user-access-token.js";
import type { UserRecord } from "../store/users/user-record.js";
import { generateAccessToken } from "./generate-access-token.js";

const invalidCredentials = "Invalid username or password.";

/**
 * Username and password in, the user's access token out. The token is issued once and kept (encrypted), so
 * signing in again from another device does not sign the first one out.
 */
export async function loginUser(
  context: GatewayContext,
  credentials: { username: string; password: string },
  client: { address: string; requestId: string },
): Promise<{ user: UserRecord; accessToken: string }> {
  // Refused before the password is even hashed: a throttled guesser costs no scrypt.
  await context.signInThrottle.assertAllowed(credentials.username, client.address);
  const user = await findUserByUsername(context.database.db, credentials.username);
  // Verify even for an unknown user, against a fixed hash, so timing does not reveal which usernames exist.
  const passwordMatches = await verifyPassword(
    credentials.password,
    user?.passwordHash ?? (await getUnknownUserHash()),
  );
  if (!user || !passwordMatches || user.status !== 1) {
    await context.signInThrottle.recordFailure(credentials.username, client.address);
    // Who tried which name from where; never the password.
    context.logger.warn(
      { username: shortenClientValue(credentials.username), address: client.address, requestId: client.requestId },
      "failed sign-in",
    );
    throw new AuthenticationError(invalidCredentials);
  }
  await context.signInThrottle.recordSuccess(credentials.username);
  if (user.accessTokenEncrypted) return { user, accessToken: context.keyCipher.decrypt(user.accessTokenEncrypted) };
  const accessToken = generateAccessToken();
  await setUserAccessToken(context.database.db, user.id, {
    accessTokenHash: context.keyCipher.hash(accessToken),
    accessTokenEncrypted: context.keyCipher.encrypt(accessToken),
  });
  return { user, accessToken };
}

// scrypt of a random password nobody knows, with the same parameters as real hashes; made once, on first need.
let unknownUserHash: Promise<string> | undefined;
function getUnknownUserHash(): Promise<string> {
  unknownUserHash ??= hashPassword(crypto.randomBytes(24).toString("base64url"));
  return unknownUserHash;
}
