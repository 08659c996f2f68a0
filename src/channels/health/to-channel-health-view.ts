import type { components } from "../../../generated/types/management.js";
import { wholeChannel } from "../../store/channel-health/channel-health-queries.js";
import type { ChannelLastTestRecord } from "../../store/channel-health/channel-last-test-queries.js";
import type { ChannelRouter } from "../channel-router.js";

type ChannelView = components["schemas"]["Channel"];

/**
 * The health part of a channel's admin view: its state (taken out by health or an administrator, else cooling down
 * on this instance's breaker, else healthy), each key's, and the last test. Keys are named by position only.
 */
export function toChannelHealthView(
  router: ChannelRouter,
  channelId: number,
  keyCount: number,
  lastTest: ChannelLastTestRecord | undefined,
  nowMs: number,
): Pick<ChannelView, "health" | "key_health" | "last_test"> {
  const { records, coolingRemainingMs } = router.readHealth(channelId);
  const own = records.find((record) => record.keyIndex === wholeChannel);
  const health: components["schemas"]["ChannelHealth"] = own
    ? {
        state: own.state,
        reason: own.reason,
        ...(own.upstreamStatus !== null ? { upstream_status: own.upstreamStatus } : {}),
        changed_time: own.changedTime,
      }
    : coolingRemainingMs > 0
      ? { state: "cooling", cooling_until: Math.ceil((nowMs + coolingRemainingMs) / 1000) }
      : { state: "healthy" };
  const keyHealth = Array.from({ length: keyCount }, (_, index): components["schemas"]["ChannelKeyHealth"] => {
    const record = records.find((candidate) => candidate.keyIndex === index);
    if (!record) return { index, state: "healthy" };
    return {
      index,
      state: record.state,
      reason: record.reason,
      ...(record.upstreamStatus !== null ? { upstream_status: record.upstreamStatus } : {}),
      changed_time: record.changedTime,
    };
  });
  return {
    health,
    key_health: keyHealth,
    ...(lastTest
      ? {
          last_test: {
            success: lastTest.success,
            latency_ms: lastTest.latencyMs,
            model: lastTest.model,
            message: lastTest.message,
            tested_time: lastTest.testedTime,
          },
        }
      : {}),
  };
}
