import type { components } from "../../generated/types/management.js";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { PermissionError } from "../errors/permission-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { hashPassword } from "../keys/hash-password.js";
import { findUserByUsername } from "../store/users/find-user-by-username.js";
import { insertUser } from "../store/users/insert-user.js";
import type { UserRecord } from "../store/users/user-record.js";

type CreateUserRequest = components["schemas"]["CreateUserRequest"];

/**
 * Administrators create users; only root creates administrators; the operator's command line ("cli") may create
 * either. Needs only the database and the clock, so the CLI can call it without a whole gateway.
 */
export async function createUserAccount(
  context: Pick<GatewayContext, "database" | "now">,
  actor: UserRecord | "cli",
  request: CreateUserRequest,
): Promise<UserRecord> {
  const role = request.role ?? "user";
  if (actor !== "cli") {
    if (actor.role === "user") throw new PermissionError("This operation requires an administrator.");
    if (role === "admin" && actor.role !== "root") throw new PermissionError("Only root can create administrators.");
  }
  if (await findUserByUsername(context.database.db, request.username)) {
    throw new InvalidRequestError(`Username ${request.username} is already taken.`, { param: "username" });
  }
  return insertUser(context.database.db, {
    username: request.username,
    passwordHash: await hashPassword(request.password),
    displayName: request.display_name ?? request.username,
    role,
    group: request.group ?? "default",
    createdTime: context.now(),
  });
}
