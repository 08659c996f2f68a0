import { PermissionError } from "../errors/gateway-error.js";
import type { UserRecord } from "../store/users/user-record.js";
import { channelMessages } from "./channel-messages.js";

/** Channels hold upstream credentials shared by everyone: only administrators (admin or root) manage them. */
export function assertAdministrator(user: UserRecord): void {
  if (user.role !== "admin" && user.role !== "root") throw new PermissionError(channelMessages.administratorRequired);
}
