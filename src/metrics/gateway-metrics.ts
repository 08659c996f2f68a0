import type { Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The gateway's Prometheus metrics. Labels are bounded sets only: generations, operation ids from the specs,
 * models that a channel serves (others are counted as `other`), channel names, status classes. Never a key, a
 * user name or anything a client wrote freely.
 */
export interface GatewayMetrics {
  registry: Registry;
  requests: Counter<"generation" | "operation" | "model" | "status_class">;
  requestDuration: Histogram<"generation" | "operation">;
  /** Times one upstream attempt of this channel. */
  observeUpstream(channel: string, seconds: number): void;
  upstreamErrors: Counter<"channel" | "retryable">;
  upstreamRetries: Counter<"channel">;
  /** Adds charged quota units for this model. */
  spendQuota(model: string, units: number): void;
  openStreams: Gauge;
  rateLimited: Counter<"limit">;
  /** Health transitions of a channel or one of its keys, by the state entered. */
  channelHealthTransitions: Counter<"channel" | "state">;
}
