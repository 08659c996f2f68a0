import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import YAML from "yaml";
import type { AllowList } from "../auth/ip/allow-list.js";
import { parseAllowList } from "../auth/ip/parse-allow-list.js";
import { ConfigurationError } from "../errors/gateway-error.js";
import { parseCorsOrigins } from "./parse-cors-origins.js";
import { findProjectRoot } from "../http/find-project-root.js";
import { configFileSchema } from "./config-file-schema.js";
import type { ChannelSettings } from "../providers/contract/channel-settings-shape.js";
import type { ChannelType } from "../providers/contract/channel-type.js";
import type { ChannelTimeouts, ConfiguredChannel, GatewayConfig, ModelPrice } from "./gateway-config.js";

type Environment = Record<string, string | undefined>;

interface RawTimeouts {
  connect_ms?: number;
  header_ms?: number;
  idle_ms?: number;
}

interface RawConfigFile {
  channels?: Array<{
    name: string;
    type: ChannelType;
    base_url: string;
    key?: string;
    keys?: string[];
    models: string[];
    model_mapping?: Record<string, string>;
    groups?: string[];
    priority?: number;
    weight?: number;
    enabled?: boolean;
    timeouts?: RawTimeouts;
    settings?: ChannelSettings;
  }>;
  groups?: Record<string, { ratio?: number; description?: string; selectable?: boolean }>;
  users?: { initial_quota?: number };
  auto_groups?: string[];
  pricing?: Record<string, Record<string, number> | boolean> & { allow_unpriced?: boolean };
  default_max_output_tokens?: number;
  timeouts?: RawTimeouts;
  relay?: { max_attempts?: number; cooldown_after_failures?: number; cooldown_seconds?: number };
  channel_health?: {
    disable_after_failures?: number;
    failure_window_seconds?: number;
    probe_interval_seconds?: number;
    test_concurrency?: number;
    webhook_url?: string;
    webhook_secret?: string;
  };
  routing?: { affinity_ttl_seconds?: number };
  tasks?: {
    poll_interval_ms?: number;
    timeout_minutes?: number;
    max_concurrent_polls?: number;
    callback_backoff_ms?: number;
    callback_tries?: number;
  };
  responses?: { route_retention_days?: number };
  logs?: {
    retention_days?: number;
    rollup_retention_days?: number;
    retention_batch_size?: number;
    retention_pause_ms?: number;
  };
  native?: { safety_settings?: Array<{ category: string; threshold: string }> };
  key_reveal_rate_limit?: { points?: number; duration_seconds?: number };
  token_limit_per_user?: number;
  sign_in_limits?: { failures_per_username?: number; failures_per_address?: number; window_seconds?: number };
  fetch?: { allow_private?: string[] };
}

const validateConfigFile = new Ajv({ allErrors: true }).compile(configFileSchema);

function readInteger(environment: Environment, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigurationError(`${name} must be a whole number, got "${raw}".`);
  return Number(raw);
}

function readPositiveInteger(environment: Environment, name: string, fallback: number): number {
  const value = readInteger(environment, name, fallback);
  if (value < 1) throw new ConfigurationError(`${name} must be at least 1, got "${environment[name]}".`);
  return value;
}

function readConfigFile(file: string): RawConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigurationError(`GATEWAY_CONFIG: cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = YAML.parse(text) ?? {};
  } catch (error) {
    throw new ConfigurationError(`GATEWAY_CONFIG: ${file} is not valid YAML: ${(error as Error).message}`);
  }
  if (!validateConfigFile(parsed)) {
    const problems = (validateConfigFile.errors ?? []).map((problem) => {
      const where = problem.instancePath.replace(/^\//, "").replaceAll("/", ".") || "(top level)";
      const extra = problem.keyword === "additionalProperties" ? ` (${String(problem.params.additionalProperty)})` : "";
      return `  - ${where}: ${problem.message}${extra}`;
    });
    throw new ConfigurationError(`GATEWAY_CONFIG: ${file} is invalid:\n${problems.join("\n")}`);
  }
  return parsed as RawConfigFile;
}

function toTimeouts(raw: RawTimeouts | undefined, fallback: ChannelTimeouts): ChannelTimeouts {
  return {
    connectMs: raw?.connect_ms ?? fallback.connectMs,
    headerMs: raw?.header_ms ?? fallback.headerMs,
    idleMs: raw?.idle_ms ?? fallback.idleMs,
  };
}

/** The price entries of the `pricing` map; `allow_unpriced` sits among them but is a switch, not a model. */
function readPricing(raw: RawConfigFile["pricing"]): Record<string, ModelPrice> {
  const { allow_unpriced: _allowUnpriced, ...prices } = raw ?? {};
  return Object.fromEntries(
    Object.entries(prices).map(([model, price]) => [model, toPrice(price as Record<string, number>)]),
  );
}

function toPrice(raw: Record<string, number>): ModelPrice {
  return {
    input: raw.input,
    output: raw.output,
    cachedInput: raw.cached_input,
    cacheWriteInput: raw.cache_write_input,
    audioInput: raw.audio_input,
    audioOutput: raw.audio_output,
    imageOutput: raw.image_output,
    perImage: raw.per_image,
    perSecond: raw.per_second,
    perCall: raw.per_call,
    maxOutputTokens: raw.max_output_tokens,
  };
}

/**
 * A secret is needed to encrypt stored keys. Without GATEWAY_SECRET the embedded default keeps a generated one
 * beside the SQLite file so `npm start` works on a fresh machine; PostgreSQL deployments must set it.
 */
function resolveSecret(environment: Environment, databaseUrl: string): string {
  const configured = environment.GATEWAY_SECRET;
  if (configured) {
    if (configured.length < 16) throw new ConfigurationError("GATEWAY_SECRET must be at least 16 characters.");
    return configured;
  }
  if (!databaseUrl.startsWith("sqlite:") || databaseUrl === "sqlite::memory:") {
    if (databaseUrl === "sqlite::memory:") return crypto.randomBytes(32).toString("base64url");
    throw new ConfigurationError("GATEWAY_SECRET is required with PostgreSQL (every instance must share it).");
  }
  const databaseFile = databaseUrl.slice("sqlite:".length);
  const secretFile = path.join(path.dirname(path.resolve(databaseFile)), "gateway.secret");
  if (fs.existsSync(secretFile)) return fs.readFileSync(secretFile, "utf8").trim();
  fs.mkdirSync(path.dirname(secretFile), { recursive: true });
  const secret = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(secretFile, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** `fetch.allow_private`: CIDR ranges (or single addresses) the SSRF-safe fetcher may reach besides public ones. */
function readFetchAllowPrivate(entries: readonly string[] | undefined): AllowList {
  try {
    return parseAllowList((entries ?? []).join(","));
  } catch (error) {
    throw new ConfigurationError(`GATEWAY_CONFIG: fetch.allow_private: ${(error as Error).message}`);
  }
}

export function loadConfig(environment: Environment = process.env): GatewayConfig {
  const databaseUrl = environment.DATABASE_URL || "sqlite:./data/gateway.db";
  const file = environment.GATEWAY_CONFIG ? readConfigFile(environment.GATEWAY_CONFIG) : {};
  const defaultTimeouts = toTimeouts(file.timeouts, { connectMs: 5_000, headerMs: 120_000, idleMs: 300_000 });
  const channels: ConfiguredChannel[] = (file.channels ?? []).map((channel) => {
    const keys = channel.keys ?? (channel.key !== undefined ? [channel.key] : []);
    return {
      name: channel.name,
      type: channel.type,
      baseUrl: channel.base_url.replace(/\/+$/, ""),
      keys,
      models: channel.models,
      modelMapping: channel.model_mapping ?? {},
      groups: channel.groups ?? ["default"],
      priority: channel.priority ?? 0,
      weight: channel.weight ?? 1,
      enabled: channel.enabled ?? true,
      timeouts: toTimeouts(channel.timeouts, defaultTimeouts),
      settings: channel.settings ?? {},
    };
  });
  const duplicate = channels.find(
    (channel, index) => channels.findIndex((other) => other.name === channel.name) !== index,
  );
  if (duplicate) throw new ConfigurationError(`GATEWAY_CONFIG: channel name "${duplicate.name}" is used twice.`);

  const groupRatios: Record<string, number> = { default: 1 };
  const groupDetails: GatewayConfig["groupDetails"] = { default: { description: "", selectable: true } };
  for (const [group, settings] of Object.entries(file.groups ?? {})) {
    groupRatios[group] = settings.ratio ?? 1;
    groupDetails[group] = {
      description: settings.description ?? "",
      selectable: settings.selectable ?? group === "default",
    };
  }

  return {
    port: readInteger(environment, "PORT", 3000),
    host: environment.HOST || "0.0.0.0",
    databaseUrl,
    redisUrl: environment.REDIS_URL || undefined,
    redisKeyPrefix: environment.REDIS_KEY_PREFIX || "gateway",
    databasePoolSize: readPositiveInteger(environment, "DATABASE_POOL_SIZE", 10),
    databaseLedgerBatchesInFlight: readPositiveInteger(environment, "DATABASE_LEDGER_BATCHES_IN_FLIGHT", 1),
    databaseLedgerDeferHoldsMargin: readInteger(environment, "DATABASE_LEDGER_DEFER_HOLDS_MARGIN", 100),
    databasePreparedStatements: readInteger(environment, "DATABASE_PREPARED_STATEMENTS", 200),
    databaseTimeouts: {
      connectTimeoutMs: readInteger(environment, "DATABASE_CONNECT_TIMEOUT_MS", 5_000),
      queryTimeoutMs: readInteger(environment, "DATABASE_QUERY_TIMEOUT_MS", 15_000),
      statementTimeoutMs: readInteger(environment, "DATABASE_STATEMENT_TIMEOUT_MS", 10_000),
      idleTimeoutMs: readInteger(environment, "DATABASE_IDLE_TIMEOUT_MS", 30_000),
      keepAliveInitialDelayMs: readInteger(environment, "DATABASE_KEEPALIVE_MS", 10_000),
    },
    redisTimeouts: {
      connectTimeoutMs: readInteger(environment, "REDIS_CONNECT_TIMEOUT_MS", 5_000),
      commandTimeoutMs: readInteger(environment, "REDIS_COMMAND_TIMEOUT_MS", 1_000),
      keepAliveInitialDelayMs: readInteger(environment, "REDIS_KEEPALIVE_MS", 10_000),
      requestBudgetMs: readInteger(environment, "REDIS_WAIT_BUDGET_MS", 50),
    },
    metricsToken: environment.METRICS_TOKEN || undefined,
    corsOrigins: parseCorsOrigins(environment.CORS_ORIGINS),
    secret: resolveSecret(environment, databaseUrl),
    adminToken: environment.GATEWAY_ADMIN_TOKEN || undefined,
    trustedProxies: environment.TRUSTED_PROXIES || undefined,
    logLevel: environment.LOG_LEVEL || "info",
    logFile: environment.LOG_FILE || undefined,
    jsonBodyLimit: environment.JSON_BODY_LIMIT || "20mb",
    managementBodyLimit: environment.MANAGEMENT_BODY_LIMIT || "1mb",
    uploadFileSizeLimit: readInteger(environment, "UPLOAD_FILE_SIZE_LIMIT", 25 * 1024 * 1024),
    validateResponses: environment.VALIDATE_RESPONSES === "true",
    fastLane: environment.FAST_LANE !== "false",
    consoleFolder: environment.CONSOLE_DIR || path.join(findProjectRoot(), "console", "dist"),
    shutdownGraceMs: readInteger(environment, "SHUTDOWN_GRACE_MS", 10_000),
    channels,
    groupRatios,
    groupDetails,
    usersInitialQuota: file.users?.initial_quota ?? 0,
    autoGroups: file.auto_groups ?? Object.keys(groupRatios),
    autoGroupsListed: file.auto_groups !== undefined,
    pricing: readPricing(file.pricing),
    allowUnpriced: file.pricing?.allow_unpriced === true,
    defaultMaxOutputTokens: file.default_max_output_tokens ?? 4096,
    defaultTimeouts,
    relay: {
      maxAttempts: file.relay?.max_attempts ?? 3,
      cooldownAfterFailures: file.relay?.cooldown_after_failures ?? 3,
      cooldownSeconds: file.relay?.cooldown_seconds ?? 30,
    },
    channelHealth: {
      disableAfterFailures: file.channel_health?.disable_after_failures ?? 3,
      failureWindowSeconds: file.channel_health?.failure_window_seconds ?? 300,
      probeIntervalSeconds: file.channel_health?.probe_interval_seconds ?? 300,
      testConcurrency: file.channel_health?.test_concurrency ?? 4,
      ...(file.channel_health?.webhook_url
        ? {
            webhook: {
              url: file.channel_health.webhook_url,
              secret: file.channel_health.webhook_secret ?? environment.CHANNEL_HEALTH_WEBHOOK_SECRET ?? "",
            },
          }
        : {}),
    },
    routing: { affinityTtlSeconds: file.routing?.affinity_ttl_seconds ?? 300 },
    tasks: {
      pollIntervalMs: file.tasks?.poll_interval_ms ?? 5000,
      timeoutMinutes: file.tasks?.timeout_minutes ?? 1440,
      maxConcurrentPolls: file.tasks?.max_concurrent_polls ?? 32,
      callbackBackoffMs: file.tasks?.callback_backoff_ms ?? 1000,
      callbackTries: file.tasks?.callback_tries ?? 6,
    },
    responses: { routeRetentionDays: file.responses?.route_retention_days ?? 30 },
    logs: {
      retentionDays: file.logs?.retention_days ?? 90,
      rollupRetentionDays: file.logs?.rollup_retention_days ?? 0,
      retentionBatchSize: file.logs?.retention_batch_size ?? 100,
      retentionPauseMs: file.logs?.retention_pause_ms ?? 100,
    },
    nativeSafetySettings: file.native?.safety_settings,
    fetchAllowPrivate: readFetchAllowPrivate(file.fetch?.allow_private),
    reservationRecoveryAfterSeconds: readInteger(environment, "RESERVATION_RECOVERY_AFTER_SECONDS", 3600),
    tokenCacheTtlMs: readInteger(environment, "TOKEN_CACHE_TTL_MS", 2000),
    sqliteCommitIntervalMs: readInteger(environment, "SQLITE_COMMIT_INTERVAL_MS", 10),
    keyRevealRateLimit: {
      points: file.key_reveal_rate_limit?.points ?? 10,
      durationSeconds: file.key_reveal_rate_limit?.duration_seconds ?? 60,
    },
    tokenLimitPerUser: file.token_limit_per_user ?? 1000,
    signInLimits: {
      failuresPerUsername: file.sign_in_limits?.failures_per_username ?? 10,
      failuresPerAddress: file.sign_in_limits?.failures_per_address ?? 50,
      windowSeconds: file.sign_in_limits?.window_seconds ?? 900,
    },
  };
}
