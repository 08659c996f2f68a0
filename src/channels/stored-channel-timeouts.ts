import { type ChannelTimeouts, longestTimerMs } from "../config/gateway-config.js";

/** The timeouts a channel's settings JSON holds; an absent field means the gateway default. */
export interface StoredChannelTimeouts {
  connect_ms?: number;
  header_ms?: number;
  idle_ms?: number;
}

/** What a channel row holds, read leniently: a value the spec does not allow now (saved before it said so) is absent. */
export function readStoredChannelTimeouts(settings: Record<string, unknown>): StoredChannelTimeouts {
  const raw = settings.timeouts;
  if (raw === null || typeof raw !== "object") return {};
  const timeouts: StoredChannelTimeouts = {};
  for (const name of ["connect_ms", "header_ms", "idle_ms"] as const) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value === "number" && Number.isInteger(value) && value > 0 && value <= longestTimerMs)
      timeouts[name] = value;
  }
  return timeouts;
}

export function toStoredChannelTimeouts(timeouts: ChannelTimeouts): StoredChannelTimeouts {
  return { connect_ms: timeouts.connectMs, header_ms: timeouts.headerMs, idle_ms: timeouts.idleMs };
}

export function resolveChannelTimeouts(stored: StoredChannelTimeouts, defaults: ChannelTimeouts): ChannelTimeouts {
  return {
    connectMs: stored.connect_ms ?? defaults.connectMs,
    headerMs: stored.header_ms ?? defaults.headerMs,
    idleMs: stored.idle_ms ?? defaults.idleMs,
  };
}
