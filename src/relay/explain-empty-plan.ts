import type { Channel } from "../providers/contract/channel.js";
import type { RoutingToken } from "../channels/channel-router.js";
import { ModelNotFoundError, NoAvailableChannelError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";

/**
 * Why a request has no channel to try. A model that no channel of the caller's groups serves for this operation
 * is the client's mistake (404, which OpenAI-style clients do not retry); one whose channels are all disabled
 * exists and may come back (503 with Retry-After: the cooldown time, the gateway's own measure of "soon").
 */
export function explainEmptyPlan(
  context: Pick<GatewayContext, "channelRouter" | "config">,
  model: { model: string; routingModel: string },
  token: RoutingToken,
  userGroup: string,
  servesOperation: (channel: Channel) => boolean,
): ModelNotFoundError | NoAvailableChannelError {
  const disabled = context.channelRouter
    .listDisabledChannels(model.routingModel, token, userGroup)
    .filter(servesOperation);
  if (disabled.length === 0) return new ModelNotFoundError(model.model);
  return new NoAvailableChannelError(model.model, { retryAfterSeconds: unavailableRetryAfterSeconds(context) });
}

/** How long a client should wait before asking again for a model whose channels are unavailable now. */
export function unavailableRetryAfterSeconds(context: Pick<GatewayContext, "config">): number {
  return Math.max(1, Math.ceil(context.config.relay.cooldownSeconds));
}
