import type { components } from "../../generated/types/management.js";
import { assertAdministrator } from "../channels/assert-administrator.js";
import { NotFoundError } from "../errors/not-found-error.js";
import { PermissionError } from "../errors/permission-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { findUserById } from "../store/users/find-user-by-id.js";
import { type UserPatch, updateUser } from "../store/users/update-user.js";
import type { UserRecord } from "../store/users/user-record.js";
import { walletMessages } from "../wallets/wallet-messages.js";
import { recordAudit } from "../audit/record-audit.js";
import { toUserView } from "./to-user-view.js";

type UpdateUserRequest = components["schemas"]["UpdateUserRequest"];

/**
 * PUT /api/user/{id}: administrators change users; only root changes administrators (or itself); nobody lifts or
 * sets their own wallet limit or status. Keys read through this instance's cache see the change at once (the cache
 * is emptied: the user's wallet flag and groups travel with every cached key of theirs); other instances within the
 * cache's lifetime.
 */
export async function updateUserAccount(
  context: Pick<GatewayContext, "database" | "tokenCache" | "now">,
  actor: UserRecord,
  userId: number,
  request: UpdateUserRequest,
): Promise<UserRecord> {
  assertAdministrator(actor);
  const target = await findUserById(context.database.db, userId);
  if (!target) throw new NotFoundError(walletMessages.userNotFound);
  if (target.role !== "user" && actor.role !== "root") throw new PermissionError(walletMessages.rootOnly);
  if (target.id === actor.id && (request.status !== undefined || request.quota_unlimited !== undefined))
    throw new PermissionError(walletMessages.notOnYourself);
  const patch: UserPatch = {};
  if (request.display_name !== undefined) patch.displayName = request.display_name;
  if (request.group !== undefined) patch.group = request.group;
  if (request.allowed_groups !== undefined) patch.allowedGroups = [...new Set(request.allowed_groups)];
  if (request.quota_unlimited !== undefined) patch.quotaUnlimited = request.quota_unlimited;
  if (request.status !== undefined) patch.status = request.status;
  const updated = await updateUser(context.database.db, userId, patch);
  if (!updated) throw new NotFoundError(walletMessages.userNotFound);
  context.tokenCache.invalidateAll();
  await recordAudit(context, actor, {
    action: "user.update",
    target: `user:${userId}`,
    before: toUserView(target),
    after: toUserView(updated),
  });
  return updated;
}
