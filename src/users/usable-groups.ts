import type { GatewayConfig } from "../config/gateway-config.js";
import { InvalidRequestError, PermissionError } from "../errors/gateway-error.js";
import { shortenClientValue } from "../errors/shorten-client-value.js";
import type { UserRole } from "../store/users/user-record.js";

/** What decides which groups a user may route and bill in. */
export interface GroupUser {
  /** the user's default group: a token with an empty group uses it */
  group: string;
  /** groups an administrator allowed this user besides the default one */
  allowedGroups: readonly string[];
  role: UserRole;
}

type GroupConfig = Pick<GatewayConfig, "groupRatios" | "groupDetails" | "autoGroups">;

/**
 * The groups a user may use, in the configured order: their default group, the groups every user may pick
 * (`selectable` in the groups section) and those an administrator allowed them. Administrators and root may use any
 * group (they manage the channels that define them).
 */
export function listUsableGroups(user: GroupUser, config: GroupConfig): string[] {
  const usable = new Set<string>([user.group]);
  for (const group of Object.keys(config.groupRatios)) {
    if (user.role !== "user" || config.groupDetails[group]?.selectable || user.allowedGroups.includes(group))
      usable.add(group);
  }
  for (const group of user.allowedGroups) usable.add(group);
  return [...usable];
}

/** Whether a token of this user may carry `group`: empty (the default group), `auto`, or a group they may use. */
export function mayUseTokenGroup(user: GroupUser, group: string, config: GroupConfig): boolean {
  if (group === "" || group === "auto" || user.role !== "user") return true;
  return listUsableGroups(user, config).includes(group);
}

/** The failover order of `auto` for this user: the configured auto groups they may use. */
export function autoGroupsFor(user: GroupUser, config: GroupConfig): string[] {
  if (user.role !== "user") return config.autoGroups;
  const usable = new Set(listUsableGroups(user, config));
  return config.autoGroups.filter((group) => usable.has(group));
}

/** Token create and update: a group the user may not use is a 400 naming the values they may. */
export function assertTokenGroupAllowed(user: GroupUser, group: string, config: GroupConfig): void {
  if (mayUseTokenGroup(user, group, config)) return;
  throw new InvalidRequestError(
    `group "${shortenClientValue(group)}" is not one you may use; use "" (your default group, ${user.group}), ` +
      `"auto" or one of: ${listUsableGroups(user, config).join(", ")}.`,
    { param: "group", code: "group_not_allowed" },
  );
}

/** Routing: a token whose group was taken from its owner is refused (403), not routed. */
export function assertRoutingGroupAllowed(user: GroupUser, group: string, config: GroupConfig): void {
  if (mayUseTokenGroup(user, group, config)) return;
  throw new PermissionError(
    `This API key's group "${group}" is no longer one its owner may use; ` +
      `edit the key to use one of: ${listUsableGroups(user, config).join(", ")}.`,
    { code: "group_not_allowed" },
  );
}
