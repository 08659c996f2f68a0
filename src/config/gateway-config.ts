import type { AllowList } from "../auth/ip/allow-list.js";
import type { ChannelType } from "../providers/channel-type.js";

/** Operator configuration: environment variables plus the optional GATEWAY_CONFIG file, validated at start. */
export interface ChannelTimeouts {
  connectMs: number;
  headerMs: number;
  idleMs: number;
}

export interface ConfiguredChannel {
  name: string;
  type: ChannelType;
  baseUrl: string;
  keys: string[];
  models: string[];
  modelMapping: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  enabled: boolean;
  timeouts: ChannelTimeouts;
}

export interface ModelPrice {
  input?: number;
  output?: number;
  cachedInput?: number;
  audioInput?: number;
  audioOutput?: number;
  imageOutput?: number;
  perImage?: number;
  perSecond?: number;
  perCall?: number;
  maxOutputTokens?: number;
}

export interface GatewayConfig {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Prefix of the Redis keys the gateway writes for per-key rate limits (REDIS_KEY_PREFIX, default `gateway`). */
  redisKeyPrefix: string;
  /** Bearer token that GET /metrics requires (METRICS_TOKEN); open when unset. */
  metricsToken: string | undefined;
  secret: string;
  adminToken: string | undefined;
  trustedProxies: string | undefined;
  logLevel: string;
  logFile: string | undefined;
  jsonBodyLimit: string;
  managementBodyLimit: string;
  uploadFileSizeLimit: number;
  validateResponses: boolean;
  shutdownGraceMs: number;
  channels: ConfiguredChannel[];
  groupRatios: Record<string, number>;
  /**
   * The groups section's other fields: what a group is for, and whether every user may pick it (`selectable`; only
   * `default` unless the file says so). A user may also use their own default group and the groups an administrator
   * allowed them.
   */
  groupDetails: Record<string, { description: string; selectable: boolean }>;
  /** The wallet of a new account (`users.initial_quota`, units; 0 by default): new users start limited. */
  usersInitialQuota: number;
  autoGroups: string[];
  pricing: Record<string, ModelPrice>;
  defaultMaxOutputTokens: number;
  defaultTimeouts: ChannelTimeouts;
  relay: { maxAttempts: number; cooldownAfterFailures: number; cooldownSeconds: number };
  /** Asynchronous (video) tasks: how often unfinished tasks are polled, when they time out, how many polls at once. */
  tasks: {
    pollIntervalMs: number;
    timeoutMinutes: number;
    maxConcurrentPolls: number;
    /** Wait before the first callback retry, doubled before each next one (`tasks.callback_backoff_ms`). */
    callbackBackoffMs: number;
    /** Callback tries in all, the first included (`tasks.callback_tries`, at least 5). */
    callbackTries: number;
  };
  nativeSafetySettings: Array<{ category: string; threshold: string }> | undefined;
  /**
   * Private ranges the SSRF-safe fetcher may reach (GATEWAY_CONFIG `fetch.allow_private`; empty by default):
   * internal object storage an operator trusts. Link-local and metadata addresses stay refused.
   */
  fetchAllowPrivate: AllowList;
  keyRevealRateLimit: { points: number; durationSeconds: number };
  /** Reservations older than this were left by a stopped process and are refunded (longer than any request). */
  reservationRecoveryAfterSeconds: number;
  /** How long an API key lookup is reused (0 turns the cache off). */
  tokenCacheTtlMs: number;
  /** SQLite: how long quota ledger writes may wait to commit together (src/store/quota/create-commit-window.ts). */
  sqliteCommitIntervalMs: number;
  /** The hot JSON operations skip the Express router when the request allows (src/http/fast-lane/); on by default. */
  fastLane: boolean;
  /** The built web console served at `/` (console/dist, written by `npm run build`). */
  consoleFolder: string;
}
