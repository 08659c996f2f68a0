import type { Response } from "express";
import type { GatewayContext } from "../gateway-context.js";
import { type ModelNameResolution, resolveModelName, type ThinkingSuffixScope } from "../models/resolve-model-name.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../users/authenticated-request.js";

/**
 * The model name of an authenticated request, read against the channels the caller's token may use and the
 * operator's prices: handlers that honour thinking suffixes resolve here and hand the result to the relay, which
 * routes, checks model limits and bills by it.
 */
export function resolveCallModel(
  context: Pick<GatewayContext, "channelRouter" | "config">,
  response: Response,
  model: string,
  scope: ThinkingSuffixScope,
): ModelNameResolution {
  const token = getAuthenticatedToken(response);
  const routing = { group: token.group, crossGroupRetry: token.crossGroupRetry };
  const userGroup = getAuthenticatedUserGroup(response);
  return resolveModelName(model, {
    pricing: context.config.pricing,
    scope,
    isServed: (name) => context.channelRouter.servesModel(name, routing, userGroup),
  });
}
