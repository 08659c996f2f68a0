import type { Response } from "express";
import { assertModelAllowed } from "../auth/assert-model-allowed.js";
import { NoAvailableChannelError } from "../errors/no-available-channel-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { findProviderAdapter } from "../providers/find-provider-adapter.js";
import type { ProviderAdapter } from "../providers/provider-adapter.js";
import { readRequestIds } from "../http/read-request-ids.js";
import { getAuthenticatedToken, getAuthenticatedUserGroup } from "../users/authenticated-request.js";
import { resolveRoutingToken } from "./resolve-routing-token.js";
import { buildUpstreamHeaders } from "./build-upstream-headers.js";
import { ClientGoneSignal } from "./client-gone-signal.js";
import { UpstreamFailure } from "./upstream-failure.js";

/** Reads that are routed like generations but never billed (GET /v1beta/voices). */
type UnbilledCapability = "nativeVoices";
type UnbilledMethod<Capability extends UnbilledCapability> = NonNullable<ProviderAdapter[Capability]>;

/**
 * An unbilled read through the channels whose adapter serves it: no reservation and no usage log, but the same
 * model check, per-key rate limits, channel plan and failover (the next channel only after a retryable failure) as runRelay. Returns
 * the first answer; the handler sends it.
 */
export async function runUnbilledRelay<Capability extends UnbilledCapability>(
  context: GatewayContext,
  response: Response,
  call: { capability: Capability; model: string; input: Parameters<UnbilledMethod<Capability>>[0] },
): Promise<Awaited<ReturnType<UnbilledMethod<Capability>>>> {
  const token = getAuthenticatedToken(response);
  const { requestId } = readRequestIds(response.req);
  assertModelAllowed(token, call.model);
  const attempts = context.channelRouter
    .planAttempts(
      call.model,
      resolveRoutingToken(response, token, context.config),
      getAuthenticatedUserGroup(response),
      context.config.relay.maxAttempts,
    )
    .filter((attempt) => findProviderAdapter(attempt.channel.type)[call.capability] !== undefined);
  if (attempts.length === 0) throw new NoAvailableChannelError(call.model);
  // Per-key limits as in runRelay: an unbilled read counts as a request, and as no tokens once admitted.
  if (token.rpmLimit > 0 || token.tpmLimit > 0) {
    const countedTokens = await context.rateLimiter.admit(token, 0);
    if (countedTokens > 0) context.rateLimiter.correct(token, countedTokens, 0, requestId);
  }
  const clientGone = new ClientGoneSignal();
  const onClientGone = () => clientGone.abort(new Error("client disconnected"));
  response.once("close", onClientGone);
  try {
    let lastFailure: unknown;
    for (const attempt of attempts) {
      const adapter = findProviderAdapter(attempt.channel.type);
      const method = adapter[call.capability] as UnbilledMethod<Capability>;
      const credentials = adapter.credentialHeaders(attempt.upstreamKey);
      try {
        const answer = await method(call.input, {
          attempt,
          signal: clientGone,
          upstreamHeaders: (options) => buildUpstreamHeaders(credentials, options),
        });
        context.channelRouter.reportSuccess(attempt.channel.id);
        return answer as Awaited<ReturnType<UnbilledMethod<Capability>>>;
      } catch (error) {
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
