import { shortenClientValue } from "../errors/shorten-client-value.js";
import type { components } from "../../generated/types/management.js";
import { isUniqueViolation } from "../channels/is-unique-violation.js";
import { ConflictError, PermissionError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { hashPassword } from "../keys/hash-password.js";
import { findUserByUsername } from "../store/users/find-user-by-username.js";
import { insertUser } from "../store/users/insert-user.js";
import type { UserRecord } from "../store/users/user-record.js";
import { recordAudit } from "../audit/record-audit.js";
import { toUserView } from "./to-user-view.js";

type CreateUserRequest = components["schemas"]["CreateUserRequest"];

/**
 * Administrators create users; only root creates administrators; the operator's command line ("cli") may create
 * either. Needs only the database and the clock, so the CLI can call it without a whole gateway. The wallet starts
 * at `initialQuota` (`users.initial_quota`), or unlimited when that is "unlimited" (the operator's own administrators
 * created from the command line).
 */
export async function createUserAccount(
  context: Pick<GatewayContext, "database" | "now">,
  actor: UserRecord | "cli",
  request: CreateUserRequest,
  initialQuota: number | "unlimited",
): Promise<UserRecord> {
  const role = request.role ?? "user";
  if (actor !== "cli") {
    if (actor.role === "user") throw new PermissionError("This operation requires an administrator.");
    if (role === "admin" && actor.role !== "root") throw new PermissionError("Only root can create administrators.");
  }
  const taken = () =>
    new ConflictError(`Username ${shortenClientValue(request.username)} is already taken.`, { param: "username" });
  if (await findUserByUsername(context.database.db, request.username)) throw taken();
  let created: UserRecord;
  try {
    created = await insertUser(context.database.db, {
      username: request.username,
      passwordHash: await hashPassword(request.password),
      displayName: request.display_name ?? request.username,
      role,
      group: request.group ?? "default",
      createdTime: context.now(),
      ...(initialQuota === "unlimited" ? {} : { quota: initialQuota }),
    });
  } catch (error) {
    // Concurrent creations of one name all pass the lookup above; the unique index lets one through.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  await recordAudit(context, actor, {
    action: "user.create",
    target: `user:${created.id}`,
    after: toUserView(created),
  });
  return created;
}
