import type { Response } from "express";
import { assertModelAllowed } from "../auth/assert-model-allowed.js";
import type { Channel } from "../providers/contract/channel.js";
import type { GatewayContext } from "../gateway-context.js";
import { exactModelName, type ModelNameResolution } from "../models/resolve-model-name.js";
import type { ProviderAdapter, UnbilledAttemptInput } from "../providers/contract/provider-adapter.js";
import { readRequestIds } from "../http/read-request-ids.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../users/authenticated-request.js";
import { resolveRoutingToken } from "./resolve-routing-token.js";
import { buildUpstreamHeaders } from "../upstream/build-upstream-headers.js";
import { ClientGoneSignal } from "../http/client-gone-signal.js";
import { ClientGoneError } from "../errors/gateway-error.js";
import { explainEmptyPlan } from "./explain-empty-plan.js";
import { UpstreamFailure } from "../upstream/upstream-failure.js";

/** Reads that are routed like generations but never billed (GET /v1beta/voices, :countTokens, Messages token counts). */
type UnbilledCapability = "nativeVoices" | "nativeCountTokens" | "messageTokenCount";
type UnbilledMethod<Capability extends UnbilledCapability> = NonNullable<ProviderAdapter[Capability]>;

/**
 * An unbilled read through the channels whose adapter serves it: no reservation and no usage log, but the same
 * model check, per-key rate limits, channel plan and failover (the next channel only after a retryable failure) as runRelay. Returns
 * the first answer; the handler sends it.
 */
export async function runUnbilledRelay<Capability extends UnbilledCapability>(
  context: GatewayContext,
  response: Response,
  call: {
    capability: Capability;
    model: string;
    /** How the handler read the model name (a thinking suffix split off); by default the name as it is. */
    resolvedModel?: ModelNameResolution;
    input: Parameters<UnbilledMethod<Capability>>[0];
    /**
     * The answer when channels serve the model but none of their adapters serves the read (a token count on a
     * protocol without one is the gateway's estimate). Without it, that is a model no channel serves.
     */
    answerWithoutUpstream?: () => Awaited<ReturnType<UnbilledMethod<Capability>>>;
  },
): Promise<Awaited<ReturnType<UnbilledMethod<Capability>>>> {
  const token = getAuthenticatedToken(response);
  const { requestId } = readRequestIds(response.req);
  // Nothing is priced here, so the pricing table is not consulted.
  const resolved = call.resolvedModel ?? exactModelName(call.model, {});
  assertModelAllowed(token, resolved);
  const routing = resolveRoutingToken(response, token, context.config);
  const userGroup = getAuthenticatedUserGroup(response);
  const servesCapability = (channel: Channel) => context.findAdapter(channel.type)[call.capability] !== undefined;
  const planned = context.channelRouter.planAttempts(
    resolved.routingModel,
    routing,
    userGroup,
    context.config.relay.maxAttempts,
  );
  const attempts = planned.filter((attempt) => servesCapability(attempt.channel));
  const answerWithoutUpstream = attempts.length === 0 && planned.length > 0 ? call.answerWithoutUpstream : undefined;
  if (attempts.length === 0 && !answerWithoutUpstream)
    throw explainEmptyPlan(context, resolved, routing, userGroup, servesCapability);
  // Per-key limits as in runRelay: an unbilled read counts as a request, and as no tokens once admitted.
  if (token.rpmLimit > 0 || token.tpmLimit > 0) {
    const countedTokens = await context.rateLimiter.admit(token, 0);
    if (countedTokens > 0) context.rateLimiter.correct(token, countedTokens, 0, requestId);
  }
  if (answerWithoutUpstream) return answerWithoutUpstream();
  const clientGone = new ClientGoneSignal();
  const onClientGone = () => clientGone.abort(new ClientGoneError());
  response.once("close", onClientGone);
  try {
    let lastFailure: unknown;
    for (const attempt of attempts) {
      const adapter = context.findAdapter(attempt.channel.type);
      // One capability's method, called with that capability's input (the union of methods takes no single input).
      const method = adapter[call.capability] as unknown as (
        input: Parameters<UnbilledMethod<Capability>>[0],
        attemptInput: UnbilledAttemptInput,
      ) => ReturnType<UnbilledMethod<Capability>>;
      const credentials = adapter.credentialHeaders(attempt.upstreamKey);
      try {
        const answer = await method(call.input, {
          attempt,
          signal: clientGone,
          upstreamHeaders: (options) => buildUpstreamHeaders(credentials, options),
        });
        context.channelRouter.reportSuccess(attempt.channel.id);
        context.channelHealth?.reportSuccess(attempt);
        return answer as Awaited<ReturnType<UnbilledMethod<Capability>>>;
      } catch (error) {
        if (clientGone.reason instanceof ClientGoneError) throw clientGone.reason;
        context.channelHealth?.reportFailure(attempt, error, requestId);
        if (!(error instanceof UpstreamFailure && error.retryable) || clientGone.aborted) throw error;
        context.channelRouter.reportFailure(attempt.channel.id, requestId);
        lastFailure = error;
      }
    }
    throw lastFailure;
  } finally {
    response.off("close", onClientGone);
  }
}
