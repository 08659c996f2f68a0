import type { components } from "../../generated/types/management.js";
import { recordAudit } from "../audit/record-audit.js";
import { InvalidRequestError, NotFoundError, PermissionError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { hashPassword } from "../keys/hash-password.js";
import { verifyPassword } from "../keys/verify-password.js";
import { updateUser } from "../store/users/update-user.js";
import { markUserDeleted, setUserPasswordById } from "../store/users/user-account-queries.js";
import type { UserRecord } from "../store/users/user-record.js";
import { walletMessages } from "../wallets/wallet-messages.js";
import { toUserView } from "./to-user-view.js";
import {
  assertNotLastRoot,
  findManagedUser,
  forgetCachedKeysEverywhere,
  type UserAdministrationContext,
} from "./update-user-account.js";
import { userMessages } from "./user-messages.js";

type UpdateSelfRequest = components["schemas"]["UpdateSelfRequest"];

/**
 * DELETE /api/user/{id}: soft. The row stays for the history that names it; the account signs in no more and its
 * keys are refused at once on every instance (their owner is no longer enabled).
 */
export async function deleteUserAccount(
  context: UserAdministrationContext,
  actor: UserRecord,
  userId: number,
): Promise<void> {
  const target = await findManagedUser(context, actor, userId);
  if (target.id === actor.id) throw new PermissionError(userMessages.notYourself);
  await assertNotLastRoot(context, target);
  if (!(await markUserDeleted(context.database.db, userId))) throw new NotFoundError(walletMessages.userNotFound);
  await forgetCachedKeysEverywhere(context);
  await recordAudit(context, actor, { action: "user.delete", target: `user:${userId}`, before: toUserView(target) });
}

/** PUT /api/user/{id}/password: the user signs in again with the new password; their API keys are untouched. */
export async function resetUserPassword(
  context: UserAdministrationContext,
  actor: UserRecord,
  userId: number,
  password: string,
): Promise<void> {
  const target = await findManagedUser(context, actor, userId);
  // A reset signs its user out: on oneself it would lock the administrator out of the session making the call, and
  // skip the current-password check the self-service change asks for.
  if (target.id === actor.id) throw new PermissionError(userMessages.resetOwnPassword);
  const changed = await setUserPasswordById(context.database.db, userId, await hashPassword(password), {
    revokeAccessToken: true,
  });
  if (!changed) throw new NotFoundError(walletMessages.userNotFound);
  // The audit row says that it happened, never the password or its hash.
  await recordAudit(context, actor, {
    action: "user.reset_password",
    target: `user:${userId}`,
    after: { username: target.username },
  });
}

/**
 * PUT /api/user/self: a user's own display name and password. A password change needs the current password, and a
 * wrong one counts as a failed sign-in (the same limits stop someone guessing with a stolen access token). The
 * access token stays: the user is already signed in on this device.
 */
export async function updateOwnAccount(
  context: Pick<GatewayContext, "database" | "signInThrottle">,
  user: UserRecord,
  request: UpdateSelfRequest,
  client: { address: string },
): Promise<UserRecord> {
  if (request.password !== undefined) {
    if (request.old_password === undefined)
      throw new InvalidRequestError(userMessages.oldPasswordRequired, { param: "old_password" });
    await context.signInThrottle.assertAllowed(user.username, client.address);
    if (!(await verifyPassword(request.old_password, user.passwordHash))) {
      await context.signInThrottle.recordFailure(user.username, client.address);
      throw new InvalidRequestError(userMessages.oldPasswordWrong, { param: "old_password" });
    }
    await setUserPasswordById(context.database.db, user.id, await hashPassword(request.password), {
      revokeAccessToken: false,
    });
  }
  const updated =
    request.display_name === undefined
      ? await updateUser(context.database.db, user.id, {})
      : await updateUser(context.database.db, user.id, { displayName: request.display_name });
  if (!updated) throw new NotFoundError(walletMessages.userNotFound);
  return updated;
}
