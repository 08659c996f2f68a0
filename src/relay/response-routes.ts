import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { findResponseRoutes, recordResponseRoutes } from "../store/response-routes/response-route-queries.js";

/** An id of an earlier upstream object a request continues, with the request field that named it. */
export interface Continuation {
  id: string;
  /** The field, as error answers name it: `previous_response_id`, `input[2].id`. */
  param: string;
}

/** Where a continuation must go: the channel and key that made the object it continues. */
export interface ContinuationTarget {
  channelId: number;
  keyIndex: number;
  continuation: Continuation;
}

const dayMs = 24 * 60 * 60 * 1000;

/** The oldest creation time (epoch ms) a route may have and still be followed. */
export function oldestFollowedRoute(context: Pick<GatewayContext, "config" | "now">): number {
  return context.now() * 1000 - context.config.responses.routeRetentionDays * dayMs;
}

/**
 * Where the objects a request continues were made. Ids the gateway never saw (made before it recorded routes, past
 * the retention, or unknown) add nothing: routing then goes as usual and the upstream judges them. Objects made on
 * two different accounts cannot be continued together, which is a client error naming the second field.
 */
export async function findContinuationTarget(
  context: Pick<GatewayContext, "config" | "now" | "database">,
  continuations: readonly Continuation[],
): Promise<ContinuationTarget | undefined> {
  if (continuations.length === 0) return undefined;
  const routes = await findResponseRoutes(
    context.database.db,
    continuations.map((continuation) => continuation.id),
    oldestFollowedRoute(context),
  );
  let target: ContinuationTarget | undefined;
  for (const continuation of continuations) {
    const route = routes.get(continuation.id);
    if (route === undefined) continue;
    if (target === undefined) {
      target = { channelId: route.channelId, keyIndex: route.keyIndex, continuation };
    } else if (target.channelId !== route.channelId || target.keyIndex !== route.keyIndex) {
      throw new InvalidRequestError(
        `${continuation.param} "${continuation.id}" was made on another upstream account than ${target.continuation.param} "${target.continuation.id}"; one request can continue objects of one account only.`,
        { param: continuation.param },
      );
    }
  }
  return target;
}

/** The refusal of a continuation whose channel is gone or can no longer serve the model, naming the field. */
export function continuationUnavailable(target: ContinuationTarget, model: string): InvalidRequestError {
  const { id, param } = target.continuation;
  return new InvalidRequestError(
    `${param} "${id}" was made on an upstream account that can no longer serve ${model} (its channel was removed, disabled or changed), and it exists only there. Send the whole conversation in input instead.`,
    { param },
  );
}

/**
 * Records that the attempt's channel and key made these upstream ids. A failure to record is logged, never the
 * request's failure: the answer is good, only a later continuation would route as usual.
 */
export async function recordCreatedIds(
  context: Pick<GatewayContext, "database" | "logger" | "now">,
  attempt: ChannelAttempt,
  ids: readonly string[],
  requestId: string,
): Promise<void> {
  const createdTime = context.now() * 1000;
  const keyIndex = Math.max(0, attempt.channel.keys.indexOf(attempt.upstreamKey));
  try {
    await recordResponseRoutes(
      context.database.db,
      ids.map((upstreamId) => ({ upstreamId, channelId: attempt.channel.id, keyIndex, createdTime })),
    );
  } catch (error) {
    context.logger.warn(
      { requestId, channelId: attempt.channel.id, err: (error as Error).message },
      "could not record where a response was made; its continuations will route as usual",
    );
  }
}
