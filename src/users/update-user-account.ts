import type { components } from "../../generated/types/management.js";
import { assertAdministrator } from "../channels/assert-administrator.js";
import { NotFoundError, PermissionError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { countOtherEnabledRoots } from "../store/users/user-account-queries.js";
import { findUserById } from "../store/users/find-user-by-id.js";
import { type UserPatch, updateUser } from "../store/users/update-user.js";
import { type UserRecord, userStatus } from "../store/users/user-record.js";
import { walletMessages } from "../wallets/wallet-messages.js";
import { recordAudit } from "../audit/record-audit.js";
import { toUserView } from "./to-user-view.js";
import { userMessages } from "./user-messages.js";

type UpdateUserRequest = components["schemas"]["UpdateUserRequest"];
export type UserAdministrationContext = Pick<GatewayContext, "database" | "tokenCache" | "userChanges" | "now">;

/**
 * The account an administrator acts on: 404 when absent or deleted; 403 unless the actor may manage it (only root
 * manages administrators and root).
 */
export async function findManagedUser(
  context: Pick<GatewayContext, "database">,
  actor: UserRecord,
  userId: number,
): Promise<UserRecord> {
  assertAdministrator(actor);
  const target = await findUserById(context.database.db, userId);
  if (!target || target.status === userStatus.deleted) throw new NotFoundError(walletMessages.userNotFound);
  if (target.role !== "user" && actor.role !== "root") throw new PermissionError(walletMessages.rootOnly);
  return target;
}

/** A root account that stops being an enabled root must leave another one behind. */
export async function assertNotLastRoot(context: Pick<GatewayContext, "database">, target: UserRecord): Promise<void> {
  if (target.role !== "root" || target.status !== userStatus.enabled) return;
  if ((await countOtherEnabledRoots(context.database.db, target.id)) === 0)
    throw new PermissionError(userMessages.lastRoot);
}

/**
 * What every instance must forget when a user changes: their cached keys carry the owner's status, groups and
 * wallet flag. This instance empties its cache at once; the others when the user change bus tells them.
 */
export async function forgetCachedKeysEverywhere(context: UserAdministrationContext): Promise<void> {
  context.tokenCache.invalidateAll();
  await context.userChanges.publish();
}

/**
 * PUT /api/user/{id}: administrators change users; only root changes administrators (or itself) and roles; nobody
 * lifts or sets their own wallet limit, status or role, and the last enabled root stays one.
 */
export async function updateUserAccount(
  context: UserAdministrationContext,
  actor: UserRecord,
  userId: number,
  request: UpdateUserRequest,
): Promise<UserRecord> {
  const target = await findManagedUser(context, actor, userId);
  if (request.role !== undefined && actor.role !== "root") throw new PermissionError(userMessages.roleRootOnly);
  if (
    target.id === actor.id &&
    (request.status !== undefined || request.quota_unlimited !== undefined || request.role !== undefined)
  )
    throw new PermissionError(walletMessages.notOnYourself);
  if ((request.role !== undefined && request.role !== target.role) || request.status === userStatus.disabled)
    await assertNotLastRoot(context, target);
  const patch: UserPatch = {};
  if (request.display_name !== undefined) patch.displayName = request.display_name;
  if (request.group !== undefined) patch.group = request.group;
  if (request.allowed_groups !== undefined) patch.allowedGroups = [...new Set(request.allowed_groups)];
  if (request.quota_unlimited !== undefined) patch.quotaUnlimited = request.quota_unlimited;
  if (request.status !== undefined) patch.status = request.status;
  if (request.role !== undefined) patch.role = request.role;
  const updated = await updateUser(context.database.db, userId, patch);
  if (!updated) throw new NotFoundError(walletMessages.userNotFound);
  await forgetCachedKeysEverywhere(context);
  await recordAudit(context, actor, {
    action: "user.update",
    target: `user:${userId}`,
    before: toUserView(target),
    after: toUserView(updated),
  });
  return updated;
}
