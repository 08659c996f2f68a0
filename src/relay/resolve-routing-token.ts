import type { Response } from "express";
import type { RoutingToken } from "../channels/channel-router.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import { getAuthenticatedTokenOwner } from "../users/authenticated-request.js";
import { assertRoutingGroupAllowed, autoGroupsFor } from "../users/usable-groups.js";

/**
 * How the authenticated key routes: its group, refused (403) when its owner may no longer use it, and for `auto` the
 * owner's own failover order (the configured auto groups they may use).
 */
export function resolveRoutingToken(
  response: Response,
  token: TokenRecord,
  config: Pick<GatewayConfig, "groupRatios" | "groupDetails" | "autoGroups">,
): RoutingToken {
  const owner = getAuthenticatedTokenOwner(response);
  const routing: RoutingToken = { group: token.group, crossGroupRetry: token.crossGroupRetry };
  if (owner === null) return routing;
  assertRoutingGroupAllowed(owner, token.group, config);
  if ((token.group || owner.group) === "auto") routing.autoGroups = autoGroupsFor(owner, config);
  return routing;
}
