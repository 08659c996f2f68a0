import type { CorsOrigins } from "./parse-cors-origins.js";
import type { AllowList } from "../auth/ip/allow-list.js";
import type { ChannelSettings } from "../providers/contract/channel-settings-shape.js";
import type { ChannelType } from "../providers/contract/channel-type.js";

/**
 * The longest timer Node.js keeps, in milliseconds: a longer one fires at once (a channel asking for 2^32 ms timed out
 * after 1 ms, a probe interval of 2^32 s probed every millisecond). It bounds channel timeouts and the health probe
 * interval, as openapi's ChannelTimeouts and ChannelHealthRules say.
 */
export const longestTimerMs = 2_147_483_647;

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
  /** The protocol settings the channel type declares (ProviderAdapter.settingsShape), checked at start. */
  settings: ChannelSettings;
}

export interface ModelPrice {
  input?: number;
  output?: number;
  cachedInput?: number;
  /** Prompt tokens written to the provider's prompt cache; 1.25 × `input` when unset (Claude's 5-minute rate). */
  cacheWriteInput?: number;
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
  /**
   * DATABASE_POOL_SIZE: PostgreSQL connections each instance keeps at most (default 10). The quota ledger uses
   * DATABASE_LEDGER_BATCHES_IN_FLIGHT of them; the rest serve everything else.
   */
  databasePoolSize: number;
  /**
   * DATABASE_LEDGER_BATCHES_IN_FLIGHT: PostgreSQL, ledger batches (holds and settlements together) each instance has
   * out at once (default 1). More helps only when many keys of many users are busy at once: batches of one hot key
   * wait on its row lock anyway, and each more batch out splits its requests into more, smaller commits.
   */
  databaseLedgerBatchesInFlight: number;
  /**
   * DATABASE_LEDGER_DEFER_HOLDS_MARGIN: PostgreSQL, how many times over the balances an instance read within the last
   * 2 s must cover a whole (not streamed) answer's worst case for it to go upstream before its hold, which its
   * settlement then takes (default 100; 0 holds every request first). src/store/quota/hold-deferral.ts.
   */
  databaseLedgerDeferHoldsMargin: number;
  /**
   * DATABASE_PREPARED_STATEMENTS: PostgreSQL, statement texts each connection runs as named prepared statements
   * (default 200). 0 sends every statement unnamed, as a PgBouncer in transaction mode without prepared-statement
   * support needs.
   */
  databasePreparedStatements: number;
  /** PostgreSQL: how long the gateway waits at each step (each bounded, so a silent network loss ends). */
  databaseTimeouts: {
    /** DATABASE_CONNECT_TIMEOUT_MS: opening a connection, or waiting for a free one (default 5000). */
    connectTimeoutMs: number;
    /** DATABASE_QUERY_TIMEOUT_MS: a query unanswered by then fails and its connection is discarded (default 15000). */
    queryTimeoutMs: number;
    /** DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL's `statement_timeout` (default 10000; 0 turns it off). */
    statementTimeoutMs: number;
    /** DATABASE_IDLE_TIMEOUT_MS: an idle pooled connection is closed after this (default 30000). */
    idleTimeoutMs: number;
    /** DATABASE_KEEPALIVE_MS: TCP keep-alive's first probe after this much silence (default 10000). */
    keepAliveInitialDelayMs: number;
  };
  /** Redis: connection timeouts and the longest a request waits on it. */
  redisTimeouts: {
    /** REDIS_CONNECT_TIMEOUT_MS: one connection attempt (default 5000). */
    connectTimeoutMs: number;
    /** REDIS_COMMAND_TIMEOUT_MS: a command unanswered by then fails and the connection is replaced (default 1000). */
    commandTimeoutMs: number;
    /** REDIS_KEEPALIVE_MS: TCP keep-alive's first probe after this much silence (default 10000). */
    keepAliveInitialDelayMs: number;
    /**
     * REDIS_WAIT_BUDGET_MS: the longest a request waits on Redis (rate limits, key reveals; default 50); past it,
     * the instance counts on its own, as during an outage.
     */
    requestBudgetMs: number;
  };
  /** Bearer token that GET /metrics requires (METRICS_TOKEN); open when unset. */
  metricsToken: string | undefined;
  /** Browser origins allowed to call the APIs (CORS_ORIGINS); undefined when CORS is off, the default. */
  corsOrigins: CorsOrigins | undefined;
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
  /**
   * `pricing`, `groupRatios`, `groupDetails` and `autoGroups` are first what the file says, which seeds the store;
   * each gateway then works on its own copy of this object whose four fields are replaced with the store's prices
   * and groups at start and after every change (src/pricing/price-catalog.ts). Read them when pricing or routing,
   * never keep them.
   */
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
  /** Whether the file named `auto_groups` (kept as `auto`'s order); otherwise `auto` walks every group in order. */
  autoGroupsListed?: boolean;
  pricing: Record<string, ModelPrice>;
  /**
   * `pricing.allow_unpriced`: serve models without a price, billed at 0 (off by default: such a model is refused,
   * since every key could use it for free).
   */
  allowUnpriced: boolean;
  defaultMaxOutputTokens: number;
  defaultTimeouts: ChannelTimeouts;
  relay: { maxAttempts: number; cooldownAfterFailures: number; cooldownSeconds: number };
  channelHealth: ChannelHealthRules;
  /**
   * Conversation affinity: how long the channel and key that served a conversation keep its next requests
   * (`routing.affinity_ttl_seconds`, default 300, about as long as a provider keeps a prompt cache warm; 0 turns it
   * off), counted from the conversation's last answered request.
   */
  routing: { affinityTtlSeconds: number };
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
  /**
   * Responses continuations: how long the channel and key that made a response (and its output items) are
   * remembered, so `previous_response_id` and `item_reference` reach that account (`responses.route_retention_days`,
   * default 30, as long as OpenAI keeps a stored response).
   */
  responses: { routeRetentionDays: number };
  /**
   * Usage log retention: raw rows older than `logs.retention_days` (default 90; 0 keeps them forever) are deleted in
   * batches of `logs.retention_batch_size` (default 100) with `logs.retention_pause_ms` (default 100) between
   * batches, and at least four times the batch's own time; hourly rollups are kept for `logs.rollup_retention_days` (default 0: forever).
   */
  logs: { retentionDays: number; rollupRetentionDays: number; retentionBatchSize: number; retentionPauseMs: number };
  nativeSafetySettings: Array<{ category: string; threshold: string }> | undefined;
  /**
   * Private ranges the SSRF-safe fetcher may reach (GATEWAY_CONFIG `fetch.allow_private`; empty by default):
   * internal object storage an operator trusts. Link-local and metadata addresses stay refused.
   */
  fetchAllowPrivate: AllowList;
  keyRevealRateLimit: { points: number; durationSeconds: number };
  /** Tokens one user may hold (`token_limit_per_user`, default 1,000); creating more is refused with a 400. */
  tokenLimitPerUser: number;
  /** Failed password sign-ins allowed per username and per client address within the window (`sign_in_limits`). */
  signInLimits: SignInLimits;
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

/** Failed password sign-ins allowed within a window before sign-in is refused with 429 (`sign_in_limits`). */
export interface SignInLimits {
  /** Failed sign-ins one username may take within the window (someone trying one account). */
  failuresPerUsername: number;
  /** Failed sign-ins one client address may make within the window (someone trying many usernames). */
  failuresPerAddress: number;
  windowSeconds: number;
}

/**
 * When a channel or key takes itself out of routing and how it comes back (GATEWAY_CONFIG `channel_health`): after
 * `disableAfterFailures` credential or account failures (0: never) within `failureWindowSeconds`; probed with the
 * channel test every `probeIntervalSeconds`. Transitions are POSTed to `webhook`, signed like task callbacks.
 */
export interface ChannelHealthRules {
  disableAfterFailures: number;
  failureWindowSeconds: number;
  probeIntervalSeconds: number;
  /** Channels tested at once by "test all". */
  testConcurrency: number;
  webhook?: { url: string; secret: string };
}
