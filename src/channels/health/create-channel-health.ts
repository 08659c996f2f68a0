import type { ChannelAttempt } from "../../providers/contract/channel-attempt.js";
import type { ChannelRouter } from "../channel-router.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { ChannelServicesContext } from "../channel-services-context.js";
import type { GatewayMetrics } from "../../metrics/gateway-metrics.js";
import { longestTimerMs } from "../../config/gateway-config.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import {
  deleteChannelHealth,
  insertChannelHealthIfAbsent,
  listChannelHealth,
  upsertChannelHealth,
  wholeChannel,
  type ChannelHealthRecord,
} from "../../store/channel-health/channel-health-queries.js";
import {
  clearCredentialFailures,
  countCredentialFailure,
} from "../../store/channel-health/channel-credential-failure-queries.js";
import {
  readChannelHealthRules,
  saveChannelHealthRules,
  type StoredChannelHealthRules,
} from "../../store/channel-health/channel-health-rules-queries.js";
import { testChannelUpstream } from "../test-channel-upstream.js";
import type { ChannelHealth, ChannelHealthTransition } from "./channel-health.js";
import { classifyCredentialFailure } from "./classify-credential-failure.js";

export interface ChannelHealthDependencies {
  router: ChannelRouter;
  metrics: GatewayMetrics;
  /** Tells the other instances to re-read channels (the channel change bus). */
  publishChange(): Promise<void>;
  /** Sends a transition to the operator's webhook, when there is one; never throws. */
  notify(transition: ChannelHealthTransition): Promise<void>;
}

/**
 * Channel health: the part of a channel's state that the gateway changes by itself. A credential or account failure
 * (see classifyCredentialFailure) counted `disable_after_failures` times within `failure_window_seconds` takes the
 * key out (a channel with several keys) or the channel (one key) through a row every instance reads; the instance
 * whose insert made the row announces it (change bus, metric, log, webhook). Failures are counted in the database,
 * every instance's together (a row per failure), so N instances behind a load balancer take a key out after the
 * failures the rules name, not N times as many. A success clears the count when this instance counted a failure of
 * that key (a write only then, not on every success). Rows of automatic disables are probed with the channel test
 * and removed when it passes.
 */
export function createChannelHealth(
  context: ChannelServicesContext & Pick<GatewayContext, "findAdapter">,
  dependencies: ChannelHealthDependencies,
): ChannelHealth {
  const configured = context.config.channelHealth;
  let rules: StoredChannelHealthRules = {
    disableAfterFailures: configured.disableAfterFailures,
    failureWindowSeconds: configured.failureWindowSeconds,
    probeIntervalSeconds: configured.probeIntervalSeconds,
  };
  let probingStarted = false;
  const { router, metrics } = dependencies;
  // Channels and keys this instance counted a failure of since they last answered: their successes clear the count.
  const countedHere = new Map<string, { channelId: number; keyIndex: number }>();
  let probeTimer: NodeJS.Timeout | undefined;
  let probing: Promise<void> | undefined;
  const pending = new Set<Promise<void>>();

  const scopeOf = (attempt: ChannelAttempt) =>
    attempt.channel.keys.length > 1 && attempt.keyIndex !== undefined ? attempt.keyIndex : wholeChannel;

  async function announce(transition: ChannelHealthTransition): Promise<void> {
    await router.reload();
    await dependencies.publishChange();
    metrics.channelHealthTransitions.inc({ channel: transition.channelName, state: transition.to });
    context.logger.warn(
      {
        channelId: transition.channelId,
        keyIndex: transition.keyIndex,
        from: transition.from,
        to: transition.to,
        reason: transition.reason,
        upstreamStatus: transition.upstreamStatus,
      },
      transition.to === "healthy" ? "channel health restored" : "channel taken out of routing",
    );
    await dependencies.notify(transition);
  }

  async function disable(attempt: ChannelAttempt, reason: string, upstreamStatus: number, requestId: string) {
    const keyIndex = scopeOf(attempt);
    const record: ChannelHealthRecord = {
      channelId: attempt.channel.id,
      keyIndex,
      state: "auto_disabled",
      reason,
      upstreamStatus,
      changedTime: context.now(),
    };
    if (!(await insertChannelHealthIfAbsent(context.database.db, record))) return;
    context.logger.info({ requestId, channelId: record.channelId }, "request's failure disabled the channel");
    await announce({
      channelId: record.channelId,
      channelName: attempt.channel.name,
      keyIndex: keyIndex === wholeChannel ? undefined : keyIndex,
      from: "healthy",
      to: "auto_disabled",
      reason,
      upstreamStatus,
      time: record.changedTime,
    });
  }

  async function forgetFailures(channelId: number, keyIndex: number): Promise<void> {
    countedHere.delete(`${channelId}:${keyIndex}`);
    await clearCredentialFailures(context.database.db, channelId, keyIndex);
  }

  async function countFailure(attempt: ChannelAttempt, reason: string, statusCode: number, requestId: string) {
    const keyIndex = scopeOf(attempt);
    const channelId = attempt.channel.id;
    const failedTime = context.now();
    countedHere.set(`${channelId}:${keyIndex}`, { channelId, keyIndex });
    const failures = await countCredentialFailure(context.database.db, {
      channelId,
      keyIndex,
      failedTime,
      windowStart: failedTime - rules.failureWindowSeconds,
    });
    if (failures < rules.disableAfterFailures) return;
    await forgetFailures(channelId, keyIndex);
    await disable(attempt, reason, statusCode, requestId);
  }

  function track(work: Promise<void>) {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }

  async function probe(record: ChannelHealthRecord): Promise<void> {
    const channel = router.findChannel(record.channelId);
    if (!channel) return;
    const keyIndex = record.keyIndex === wholeChannel ? 0 : record.keyIndex;
    const outcome = await testChannelUpstream(context, record.channelId, undefined, { keyIndex });
    if (!outcome.success) return;
    if (!(await deleteChannelHealth(context.database.db, record.channelId, record.keyIndex, "auto_disabled"))) return;
    await forgetFailures(record.channelId, record.keyIndex);
    await announce({
      channelId: record.channelId,
      channelName: channel.name,
      keyIndex: record.keyIndex === wholeChannel ? undefined : record.keyIndex,
      from: "auto_disabled",
      to: "healthy",
      reason: "probe passed",
      upstreamStatus: null,
      time: context.now(),
    });
  }

  function applyRules(next: StoredChannelHealthRules): void {
    const intervalChanged = next.probeIntervalSeconds !== rules.probeIntervalSeconds;
    rules = next;
    if (intervalChanged && probingStarted) scheduleProbes();
  }

  function scheduleProbes(): void {
    clearInterval(probeTimer);
    probeTimer = setInterval(() => {
      void health
        .probeOnce()
        .catch((error: unknown) => context.logger.error({ err: error }, "cannot read channel health for probing"));
    }, probeIntervalMs(rules.probeIntervalSeconds));
    probeTimer.unref();
  }

  const health: ChannelHealth = {
    readRules: () => ({ ...rules }),
    async updateRules(change) {
      const next = { ...rules, ...change };
      await saveChannelHealthRules(context.database.db, next, context.now());
      applyRules(next);
      return { ...next };
    },
    async refreshRules() {
      const stored = await readChannelHealthRules(context.database.db);
      if (stored) applyRules(stored);
    },
    reportFailure(attempt, error, requestId) {
      if (rules.disableAfterFailures <= 0 || !(error instanceof UpstreamFailure) || !error.upstreamAnswer) return;
      const { statusCode, bodyText } = error.upstreamAnswer;
      const reason = classifyCredentialFailure(statusCode, bodyText);
      if (reason === undefined) return;
      track(
        countFailure(attempt, reason, statusCode, requestId).catch((failure: unknown) =>
          context.logger.error({ err: failure, channelId: attempt.channel.id }, "cannot store a channel's health"),
        ),
      );
    },
    reportSuccess(attempt) {
      if (countedHere.size === 0) return;
      const counted = countedHere.get(`${attempt.channel.id}:${scopeOf(attempt)}`);
      if (counted === undefined) return;
      track(
        forgetFailures(counted.channelId, counted.keyIndex).catch((failure: unknown) =>
          context.logger.error({ err: failure, channelId: counted.channelId }, "cannot store a channel's health"),
        ),
      );
    },
    async setByAdministrator(channelId, keyIndex, enabled) {
      const scope = keyIndex ?? wholeChannel;
      const channel = router.findChannel(channelId);
      const before = router.readHealth(channelId).records.find((record) => record.keyIndex === scope);
      const time = context.now();
      if (enabled) {
        if (!before || !(await deleteChannelHealth(context.database.db, channelId, scope))) return;
      } else {
        if (before?.state === "disabled") return;
        await upsertChannelHealth(context.database.db, {
          channelId,
          keyIndex: scope,
          state: "disabled",
          reason: "disabled by an administrator",
          upstreamStatus: null,
          changedTime: time,
        });
      }
      await forgetFailures(channelId, scope);
      await announce({
        channelId,
        channelName: channel?.name ?? String(channelId),
        keyIndex,
        from: before?.state ?? "healthy",
        to: enabled ? "healthy" : "disabled",
        reason: enabled ? "enabled by an administrator" : "disabled by an administrator",
        upstreamStatus: null,
        time,
      });
    },
    probeOnce() {
      probing ??= (async () => {
        try {
          const records = await listChannelHealth(context.database.db);
          for (const record of records) {
            if (record.state !== "auto_disabled") continue;
            await probe(record).catch((error: unknown) =>
              context.logger.error({ err: error, channelId: record.channelId }, "channel health probe failed"),
            );
          }
        } finally {
          probing = undefined;
        }
      })();
      return probing;
    },
    startProbing() {
      probingStarted = true;
      scheduleProbes();
    },
    async stop() {
      probingStarted = false;
      clearInterval(probeTimer);
      await probing?.catch(() => undefined);
      await Promise.allSettled([...pending]);
    },
  };
  return health;
}

/**
 * The probe timer's period. Rules saved before the spec bounded the interval may ask for more than a timer holds, and
 * Node.js fires such a timer at once: every millisecond, for an interval.
 */
export function probeIntervalMs(probeIntervalSeconds: number): number {
  return Math.min(probeIntervalSeconds * 1000, longestTimerMs);
}
