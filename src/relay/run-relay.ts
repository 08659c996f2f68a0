import type { Request, Response } from "express";
import { ClientGoneSignal } from "../http/client-gone-signal.js";
import { assertModelAllowed } from "../auth/assert-model-allowed.js";
import type { Reservation } from "../billing/billing-service.js";
import type { MeteredUsage } from "../billing/metered-usage.js";
import type { RoutingToken } from "../channels/channel-router.js";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import type { Channel } from "../providers/contract/channel.js";
import {
  ClientGoneError,
  InsufficientQuotaError,
  NoAvailableChannelError,
  UnpricedModelError,
} from "../errors/gateway-error.js";
import { explainEmptyPlan, unavailableRetryAfterSeconds } from "./explain-empty-plan.js";
import type { GatewayContext } from "../gateway-context.js";
import { exactModelName, type ModelNameResolution } from "../models/resolve-model-name.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import {
  getAuthenticatedToken,
  getAuthenticatedTokenOwner,
  getAuthenticatedUserGroup,
} from "../users/authenticated-request.js";
import { resolveRoutingToken } from "./resolve-routing-token.js";
import { createObservedUsage } from "../providers/contract/observed-usage.js";
import { UpstreamFailure } from "../upstream/upstream-failure.js";
import { activeTracing, type AttemptTrace } from "../tracing/tracing-hooks.js";
import { readRequestIds } from "../http/read-request-ids.js";
import type { RequestIds } from "../http/request-ids.js";
import { sendJsonAnswer } from "../http/send-json-answer.js";
import { holdFinalFrames, releaseFinalFrames } from "../http/sse-writer.js";
import { buildUpstreamHeaders } from "../upstream/build-upstream-headers.js";
import { continuationUnavailable, recordCreatedIds, type ContinuationTarget } from "./response-routes.js";
import type {
  RelayCapability,
  RelayCapabilityCalls,
  RelayCapabilityMethod,
} from "../providers/contract/provider-adapter.js";

export interface RelayCall<Capability extends RelayCapability> {
  /** What the client asked for: only channels whose adapter serves this capability are planned. */
  capability: Capability;
  /** The capability's typed call, handed to the adapter of each attempt's channel. */
  input: RelayCapabilityCalls[Capability];
  /** The model the client asked for, suffixes included (usage logs and messages keep it). */
  model: string;
  /**
   * How the handler read the model name (a thinking suffix split off, see resolveCallModel); without it the name
   * is taken as it is. Routing, model limits and the price all follow this one reading.
   */
  resolvedModel?: ModelNameResolution;
  /** Appended to the channel's mapped model name (a thinking suffix that rides on past routing to the adapter). */
  upstreamModelSuffix?: string;
  isStream: boolean;
  promptTokenEstimate: number;
  /**
   * Usage priced per unit that the reservation must hold too (images requested at `per_image`), beyond the token
   * worst case, so a per-image model cannot be granted more images than the balance covers.
   */
  reservedUsage?: Pick<MeteredUsage, "imageCount" | "durationSeconds">;
  maxOutputTokens: number | undefined;
  /** Narrows the planned channels further (a remix must go to the channel holding the source video). */
  acceptsAttempt?: (attempt: ChannelAttempt) => boolean;
  /**
   * The channel and key that made what the request continues (`previous_response_id`, `item_reference`): the only
   * attempt planned. A channel that can no longer serve the model is a 400 naming the field.
   */
  continuationTarget?: ContinuationTarget;
  /**
   * The request's conversation (readConversationKey): its requests go to the channel and key that served it last
   * while that channel is healthy, so the provider's prompt cache keeps hitting. Ignored for continuations.
   */
  conversationKey?: string;
  /**
   * An asynchronous task: a successful attempt has handed the reservation to the task row (which settles it when
   * the task ends), so the relay neither settles nor logs usage then. A failed submission is still refunded here.
   */
  handsOverReservation?: boolean;
}

/** The one attempt of a continuation: on the channel and key that made what it continues, or a 400. */
function planContinuation<Capability extends RelayCapability>(
  context: GatewayContext,
  call: RelayCall<Capability>,
  routingModel: string,
  userGroup: string,
  target: ContinuationTarget,
  routing: RoutingToken,
): ChannelAttempt[] {
  const attempt = context.channelRouter.planAttemptOn(routingModel, routing, userGroup, target);
  if (attempt === undefined || context.findAdapter(attempt.channel.type)[call.capability] === undefined)
    throw continuationUnavailable(target, call.model);
  return [attempt];
}

const zeroUsage: MeteredUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

/**
 * The relay: check the model is allowed, plan channels, reserve the worst case once, try channels in order
 * (retrying retryable failures only while nothing reached the client), then settle what was used, exactly once,
 * whatever happened, and queue the usage log row.
 */
export async function runRelay<Capability extends RelayCapability>(
  context: GatewayContext,
  request: Request,
  response: Response,
  call: RelayCall<Capability>,
): Promise<void> {
  const token: TokenRecord = getAuthenticatedToken(response);
  const resolved = call.resolvedModel ?? exactModelName(call.model, context.config.pricing);
  assertModelAllowed(token, resolved);
  const userGroup = getAuthenticatedUserGroup(response);
  const routing = resolveRoutingToken(response, token, context.config);
  let plan: ChannelAttempt[];
  const conversation =
    call.conversationKey !== undefined && !call.continuationTarget
      ? { tokenId: token.id, model: resolved.routingModel, conversationKey: call.conversationKey }
      : undefined;
  if (call.continuationTarget) {
    plan = planContinuation(context, call, resolved.routingModel, userGroup, call.continuationTarget, routing);
  } else {
    const servesCapability = (channel: Channel) => context.findAdapter(channel.type)[call.capability] !== undefined;
    const preferred = conversation ? await context.conversationAffinity.find(conversation) : undefined;
    const capable = context.channelRouter
      .planAttempts(resolved.routingModel, routing, userGroup, context.config.relay.maxAttempts, preferred)
      .filter((attempt) => servesCapability(attempt.channel));
    if (capable.length === 0) throw explainEmptyPlan(context, resolved, routing, userGroup, servesCapability);
    // Narrowed further only for a call bound to one channel (a remix), whose channel then is unavailable, not unknown.
    plan = call.acceptsAttempt ? capable.filter(call.acceptsAttempt) : capable;
    if (plan.length === 0)
      throw new NoAvailableChannelError(call.model, { retryAfterSeconds: unavailableRetryAfterSeconds(context) });
    // Every channel that could serve it failed repeatedly and is cooling down: a served model that is unavailable
    // for now, answered at once (503, Retry-After: when the first comes back) instead of hammering a failing upstream.
    const secondsUntilReady = context.channelRouter.secondsUntilAnyReady(plan);
    if (secondsUntilReady > 0) throw new NoAvailableChannelError(call.model, { retryAfterSeconds: secondsUntilReady });
  }
  // Refused before anything is held or sent: without a price every key's usage of the model would be free.
  if (resolved.price === undefined && !context.config.allowUnpriced) throw new UnpricedModelError(call.model);

  const { requestId, ledgerRequestId } = readRequestIds(request);
  // A model some channel serves (suffixes such as a thinking budget left out): a bounded metrics label.
  const metricsModel = resolved.routingModel;
  const { priceModel } = resolved;
  (request as RequestIds).metricsModel = metricsModel;
  // Per-key limits come before anything is reserved: a refused request holds and bills nothing.
  const countedTokens =
    token.rpmLimit > 0 || token.tpmLimit > 0
      ? await context.rateLimiter.admit(
          token,
          call.promptTokenEstimate + (call.maxOutputTokens ?? context.billing.defaultMaxOutputTokens(priceModel)),
        )
      : 0;
  const worstCase = Math.max(
    ...plan.map(
      (attempt) =>
        context.billing.worstCaseCost(
          priceModel,
          attempt.group,
          call.promptTokenEstimate,
          readAttemptOutputCap(context, call, attempt) ?? call.maxOutputTokens,
          requestId,
        ) +
        (call.reservedUsage
          ? context.billing.priceUsage(priceModel, attempt.group, { ...zeroUsage, ...call.reservedUsage })
          : 0),
    ),
  );
  let reservation: Reservation;
  try {
    // A whole answer is written only after its settlement (below), so its hold may wait for it (Reservation.deferred);
    // a stream's events go out before, and a task's reservation outlives the request.
    reservation = await context.billing.reserve(
      token,
      ledgerRequestId,
      worstCase,
      { walletUnlimited: getAuthenticatedTokenOwner(response)?.walletUnlimited },
      { answerWithheld: !call.isStream && call.handsOverReservation !== true },
    );
  } catch (error) {
    context.rateLimiter.correct(token, countedTokens, 0, requestId);
    throw error;
  }

  const clientGone = new ClientGoneSignal();
  const onClientGone = () => {
    if (!response.writableFinished) clientGone.abort(new ClientGoneError());
  };
  response.on("close", onClientGone);
  const leaveOpenRelays = context.openRelays?.add(clientGone);

  const clientHeader = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(",") : value;
  };
  const observed = createObservedUsage();
  const remembered = new Map<string, unknown>();
  const remember = <Value>(key: string, create: () => Value): Value => {
    if (!remembered.has(key)) remembered.set(key, create());
    return remembered.get(key) as Value;
  };
  let delivery: { body: unknown } | { contentType: string; bytes: Buffer } | undefined;
  const deliver = (body: unknown) => {
    delivery = { body };
  };
  const deliverBytes = (contentType: string, bytes: Buffer) => {
    delivery = { contentType, bytes };
  };
  // Where the answers' ids were made is written while the answer is still being made, and waited for before it ends.
  const recordings: Array<Promise<void>> = [];
  const startedAt = performance.now();
  let usedAttempt: ChannelAttempt | undefined;
  let failure: unknown;
  /** Settles what was observed, exactly once whatever happened, with the usage log row in the same commit. */
  const settleAndRecord = async () => {
    const usage =
      observed.usage ??
      (observed.streamedCompletionTokens > 0
        ? { ...zeroUsage, completionTokens: observed.streamedCompletionTokens }
        : undefined);
    const billedGroup = usedAttempt?.group ?? plan[0]!.group;
    const cost = usage ? context.billing.priceUsage(priceModel, billedGroup, usage) : 0;
    // The usage log row commits with the settlement: an answered request always has its row. A deferred hold the
    // balances no longer cover throws here, before anything of the answer is written.
    await context.billing
      .settle(reservation, cost, {
        userId: token.userId,
        tokenId: token.id,
        tokenName: token.name,
        model: call.model,
        channelId: usedAttempt?.channel.id ?? null,
        requestId,
        isStream: call.isStream,
        usage: usage ?? zeroUsage,
        quota: cost,
        latencyMs: Math.round(performance.now() - startedAt),
        status: failure ? "error" : "success",
        group: billedGroup,
        ...(failure ? { errorMessage: (failure as Error).message?.slice(0, 500) } : {}),
      })
      .catch((error: unknown) => {
        if (error instanceof InsufficientQuotaError) {
          context.rateLimiter.correct(token, countedTokens, 0, requestId);
          // The upstream was paid for an answer the client does not get: an operator should see how often.
          context.logger.warn(
            { requestId, channel: usedAttempt?.channel.name },
            "answer withheld: balance spent meanwhile",
          );
        }
        throw error;
      });
    if (countedTokens > 0) {
      context.rateLimiter.correct(
        token,
        countedTokens,
        usage ? usage.promptTokens + usage.completionTokens : 0,
        requestId,
      );
    }
    if (cost > 0) context.metrics.spendQuota(metricsModel, cost);
  };
  const { metrics } = context;
  const tracing = activeTracing();
  let retryReason: string | undefined;
  if (call.isStream) {
    metrics.openStreams.inc();
    holdFinalFrames(response);
  }
  try {
    for (const [index, attempt] of plan.entries()) {
      usedAttempt = attempt;
      const attemptStartedAt = performance.now();
      const attemptTrace: AttemptTrace | undefined = tracing?.startAttempt(request, response, {
        capability: call.capability,
        channelId: attempt.channel.id,
        channelName: attempt.channel.name,
        channelType: attempt.channel.type,
        requestModel: call.model,
        upstreamModel: attempt.upstreamModel,
        isStream: call.isStream,
        attemptNumber: index + 1,
        ...(retryReason !== undefined ? { retryReason } : {}),
      });
      try {
        const adapter = context.findAdapter(attempt.channel.type);
        const method = adapter[call.capability] as RelayCapabilityMethod<RelayCapabilityCalls[Capability]>;
        const credentials = adapter.credentialHeaders(attempt.upstreamKey);
        const routedAttempt = call.upstreamModelSuffix
          ? { ...attempt, upstreamModel: `${attempt.upstreamModel}${call.upstreamModelSuffix}` }
          : attempt;
        const runAttempt = () =>
          method(
            call.input,
            {
              attempt: routedAttempt,
              upstreamHeaders: (options) => buildUpstreamHeaders(credentials, options),
              clientHeader,
              response,
              remember,
              signal: clientGone,
              observed,
              requestId,
              reservation,
              deliver,
              deliverBytes,
              noteCreatedIds: (ids) => {
                if (ids.length > 0) recordings.push(recordCreatedIds(context, attempt, ids, requestId));
              },
            },
            context.providers,
          );
        await (attemptTrace === undefined ? runAttempt() : attemptTrace.run(runAttempt));
        context.channelRouter.reportSuccess(attempt.channel.id);
        context.channelHealth?.reportSuccess(attempt);
        // The conversation follows the channel that answered (after a failover, the new one), before the answer ends.
        if (conversation) {
          const keyIndex = attempt.keyIndex ?? Math.max(0, attempt.channel.keys.indexOf(attempt.upstreamKey));
          recordings.push(
            context.conversationAffinity.remember(conversation, { channelId: attempt.channel.id, keyIndex }),
          );
        }
        failure = undefined;
        break;
      } catch (error) {
        failure = error;
        const retryable = error instanceof UpstreamFailure && error.retryable;
        metrics.upstreamErrors.inc({ channel: attempt.channel.name, retryable: retryable ? "true" : "false" });
        if (retryable) context.channelRouter.reportFailure(attempt.channel.id, requestId);
        context.channelHealth?.reportFailure(attempt, error, requestId);
        const canRetry = retryable && !response.headersSent && !clientGone.aborted && index < plan.length - 1;
        if (!canRetry) break;
        if (tracing !== undefined) retryReason = describeRetryReason(error);
        metrics.upstreamRetries.inc({ channel: attempt.channel.name });
        context.logger.warn(
          { requestId, channel: attempt.channel.name, err: (error as Error).message },
          "upstream attempt failed, trying the next channel",
        );
      } finally {
        metrics.observeUpstream(attempt.channel.name, (performance.now() - attemptStartedAt) / 1000);
        attemptTrace?.end({
          ...(failure ? { error: failure } : {}),
          ...(observed.usage
            ? { inputTokens: observed.usage.promptTokens, outputTokens: observed.usage.completionTokens }
            : {}),
        });
      }
    }
  } finally {
    if (call.isStream) metrics.openStreams.dec();
    response.off("close", onClientGone);
    leaveOpenRelays?.();
    // The answer waits for the settlement: on both databases settle resolves once the settlement is committed, so an
    // answer the client has seen is billed after any crash and a balance read right after it shows the charge (on
    // SQLite the commit is brought forward and shared by the settlements of one event loop turn; see
    // create-sqlite-quota-ledger.ts).
    const handedOver = call.handsOverReservation === true && !failure;
    let settled = false;
    try {
      if (!handedOver) await settleAndRecord();
      // The ids this answer made are routable before the answer ends (the client may continue at once).
      if (recordings.length > 0) await Promise.all(recordings);
      settled = true;
    } finally {
      // A stream's final frames (see sse-writer.ts) go out only after its settlement committed; a settlement that
      // failed leaves the client with a stream that never finished.
      const finalFrames = call.isStream ? releaseFinalFrames(response) : [];
      if (settled && (!failure || response.headersSent)) {
        for (const frame of finalFrames) if (!response.writableEnded && !response.destroyed) response.write(frame);
      }
    }
  }
  if (clientGone.reason instanceof ClientGoneError) {
    // Nobody is left to answer (a stopping gateway aborts the same signal with its own reason, and answers).
    context.logger.info({ requestId, status: 499, path: request.path }, clientGone.reason.message);
    return;
  }
  if (failure && !response.headersSent) throw failure;
  if (failure) context.logger.warn({ requestId, err: (failure as Error).message }, "stream ended early");
  if (delivery && "bytes" in delivery) response.type(delivery.contentType).send(delivery.bytes);
  else if (delivery) sendJsonAnswer(response, delivery.body);
  else if (!response.writableEnded) response.end();
}

/** Why an attempt was left for the next channel, for its trace: the error code and the upstream's status. */
/** The output cap the attempt's protocol asks its upstream for, when its translation raises the client's. */
function readAttemptOutputCap<Capability extends RelayCapability>(
  context: GatewayContext,
  call: RelayCall<Capability>,
  attempt: ChannelAttempt,
): number | undefined {
  const readCap = context.findAdapter(attempt.channel.type).outputTokenCap?.[call.capability] as
    | ((call: RelayCapabilityCalls[Capability], upstreamModel: string) => number | undefined)
    | undefined;
  return readCap?.(call.input, `${attempt.upstreamModel}${call.upstreamModelSuffix ?? ""}`);
}

function describeRetryReason(error: unknown): string {
  if (!(error instanceof UpstreamFailure)) return "error";
  const upstreamStatus = error.upstreamStatusCode;
  return upstreamStatus === undefined ? error.code : `${error.code} (upstream ${upstreamStatus})`;
}
