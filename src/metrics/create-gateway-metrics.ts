import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { GatewayMetrics } from "./gateway-metrics.js";

export interface GatewayMetricsSources {
  /** Channels cooling down right now. */
  countChannelsInCooldown(): number;
  /** Channels and keys taken out of routing automatically (their credential or account refused). */
  countAutoDisabled?(): number;
  /** Video tasks by status, read when scraped. */
  countTasksByStatus(): Promise<Array<{ status: string; count: number }>>;
  /** SQLite only: commits of the quota ledger's commit window so far. */
  countSqliteCommits?(): number;
}

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

// The process metrics (CPU, memory, event loop, GC) belong to the process, not to a gateway: collected once,
// however many gateways a process builds (tests build dozens; each collector keeps its own timers).
let processRegistry: Registry | undefined;

/**
 * One registry per gateway (tests run several in one process; the global registry would refuse the second),
 * exposed merged with the process metrics. Counters are updated in place on the hot path, through children cached
 * per label value; the gauges that read state (cooldowns, tasks) are computed only when scraped.
 */
export function createGatewayMetrics(sources: GatewayMetricsSources): GatewayMetrics {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  const gatewayRegistry = new Registry();
  const registers = [gatewayRegistry];
  new Gauge({
    name: "gateway_channels_in_cooldown",
    help: "Channels cooling down after repeated upstream failures.",
    registers,
    collect() {
      this.set(sources.countChannelsInCooldown());
    },
  });
  new Gauge({
    name: "gateway_channels_auto_disabled",
    help: "Channels and channel keys taken out of routing because the upstream refused their credential or account.",
    registers,
    collect() {
      this.set(sources.countAutoDisabled?.() ?? 0);
    },
  });
  const tasks = new Gauge({
    name: "gateway_tasks",
    help: "Asynchronous (video) tasks by status.",
    labelNames: ["status"] as const,
    registers,
    async collect() {
      const counts = await sources.countTasksByStatus();
      tasks.reset();
      for (const status of ["queued", "in_progress", "completed", "failed"]) tasks.set({ status }, 0);
      for (const { status, count } of counts) tasks.set({ status }, count);
    },
  });
  if (sources.countSqliteCommits) {
    const countCommits = sources.countSqliteCommits;
    let reported = 0;
    new Counter({
      name: "gateway_sqlite_commits_total",
      help: "Commits of the SQLite quota ledger (settlements finished in one event-loop turn share one).",
      registers,
      collect() {
        const committed = countCommits();
        this.inc(committed - reported);
        reported = committed;
      },
    });
  }
  const upstreamDuration = new Histogram({
    name: "gateway_upstream_duration_seconds",
    help: "Time of one upstream attempt, from sending the request to the end of its answer (streams included).",
    labelNames: ["channel"] as const,
    buckets: latencyBuckets,
    registers,
  });
  const quotaSpent = new Counter({
    name: "gateway_quota_spent_total",
    help: "Quota units charged (500,000 = 1 USD), per model.",
    labelNames: ["model"] as const,
    registers,
  });
  const upstreamTimers = new Map<string, Histogram.Internal<"channel">>();
  const quotaCounters = new Map<string, Counter.Internal>();
  const metrics: Omit<GatewayMetrics, "registry"> = {
    observeUpstream(channel, seconds) {
      let timer = upstreamTimers.get(channel);
      if (!timer) {
        timer = upstreamDuration.labels({ channel });
        upstreamTimers.set(channel, timer);
      }
      timer.observe(seconds);
    },
    spendQuota(model, units) {
      let counter = quotaCounters.get(model);
      if (!counter) {
        counter = quotaSpent.labels({ model });
        quotaCounters.set(model, counter);
      }
      counter.inc(units);
    },
    requests: new Counter({
      name: "gateway_requests_total",
      help: "Requests answered on /api, /v1 and /v1beta, by generation, operation, model and status class.",
      labelNames: ["generation", "operation", "model", "status_class"] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: "gateway_request_duration_seconds",
      help: "Time from receiving a request to the end of its answer.",
      labelNames: ["generation", "operation"] as const,
      buckets: latencyBuckets,
      registers,
    }),
    upstreamErrors: new Counter({
      name: "gateway_upstream_errors_total",
      help: "Failed upstream attempts per channel; retryable ones may be retried on another channel.",
      labelNames: ["channel", "retryable"] as const,
      registers,
    }),
    upstreamRetries: new Counter({
      name: "gateway_upstream_retries_total",
      help: "Requests moved to another channel after this channel failed.",
      labelNames: ["channel"] as const,
      registers,
    }),
    openStreams: new Gauge({
      name: "gateway_open_streams",
      help: "Streamed answers in progress.",
      registers,
    }),
    channelHealthTransitions: new Counter({
      name: "gateway_channel_health_transitions_total",
      help: "Health changes of channels and keys, by the state entered (healthy, auto_disabled, disabled).",
      labelNames: ["channel", "state"] as const,
      registers,
    }),
    rateLimited: new Counter({
      name: "gateway_rate_limited_total",
      help: "Requests refused by a per-key rate limit, by limit (rpm or tpm).",
      labelNames: ["limit"] as const,
      registers,
    }),
  };
  // Merged last: a merged registry holds the metrics registered by then.
  return { ...metrics, registry: Registry.merge([processRegistry, gatewayRegistry]) };
}
