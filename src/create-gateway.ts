import { createAnthropicHandlers } from "./api/anthropic/create-anthropic-handlers.js";
import type { Express } from "express";
import { providerRegistry } from "./providers/registry.js";
import { createManagementHandlers } from "./api/management/create-management-handlers.js";
import { createNativeHandlers } from "./api/native/create-native-handlers.js";
import { createOpenaiHandlers } from "./api/openai/create-openai-handlers.js";
import { createApp } from "./app.js";
import { createBillingService } from "./billing/create-billing-service.js";
import { startReservationRecovery } from "./billing/start-reservation-recovery.js";
import { startResponseRouteSweep } from "./relay/start-response-route-sweep.js";
import { startUsageLogPartitioning } from "./usage-logs/start-usage-log-partitioning.js";
import { startUsageRetention } from "./usage-logs/start-usage-retention.js";
import { openRedis } from "./cache/open-redis.js";
import { createConversationAffinity } from "./channels/create-conversation-affinity.js";
import { createSignInThrottle } from "./users/create-sign-in-throttle.js";
import { createGatewayMetrics } from "./metrics/create-gateway-metrics.js";
import { createTokenRateLimiter } from "./rate-limits/create-token-rate-limiter.js";
import { countTasksByStatus } from "./store/tasks/count-tasks-by-status.js";
import { checkDatabase } from "./store/check-database.js";
import { createTokenCache } from "./auth/create-token-cache.js";
import { createApiKeyAuthenticator } from "./auth/create-api-key-authenticator.js";
import { createChannelChangeBus } from "./channels/create-channel-change-bus.js";
import { createChangeBus } from "./cache/create-change-bus.js";
import { createPriceCatalog } from "./pricing/price-catalog.js";
import { syncConfigPrices } from "./pricing/sync-config-prices.js";
import { listUnpricedModels } from "./models/list-unpriced-models.js";
import { createChannelRouter } from "./channels/create-channel-router.js";
import type { ChannelHealth } from "./channels/health/channel-health.js";
import { createChannelHealth } from "./channels/health/create-channel-health.js";
import { createHealthWebhookNotifier } from "./channels/health/create-health-webhook-notifier.js";
import { syncConfigChannels } from "./channels/sync-config-channels.js";
import { parseAllowList } from "./auth/ip/parse-allow-list.js";
import { assertConfigChannelSettingsFit } from "./config/assert-config-channel-settings-fit.js";
import type { GatewayConfig } from "./config/gateway-config.js";
import type { GatewayContext } from "./gateway-context.js";
import type { ProviderAdapterLookup } from "./providers/contract/provider-adapter-lookup.js";
import { createProviderServices } from "./providers/create-provider-services.js";
import { createKeyCipher } from "./keys/create-key-cipher.js";
import type { Logger } from "./logging/logger.js";
import type { GatewayDatabase } from "./store/gateway-database.js";
import { createOpenRelayRegistry } from "./relay/create-open-relay-registry.js";
import { closeUpstreamDispatchers } from "./upstream/get-upstream-dispatcher.js";
import { openDatabase } from "./store/open-database.js";
import { createAccessTimeRecorder } from "./tokens/create-access-time-recorder.js";
import { createKeyRevealLimiter } from "./tokens/create-key-reveal-limiter.js";
import { bootstrapRootUser } from "./users/bootstrap-root-user.js";
import { createCallbackDeliverer } from "./callbacks/create-callback-deliverer.js";
import { createTaskCallbackSender } from "./callbacks/create-task-callback-sender.js";
import { createAddressRule } from "./net/create-address-rule.js";
import { createVideoTaskService } from "./tasks/create-video-task-service.js";
import { startTaskPoller } from "./tasks/start-task-poller.js";
import { createUserAuthenticator } from "./users/create-user-authenticator.js";

export interface Gateway {
  app: Express;
  context: GatewayContext;
  /** Flushes batched writes and closes the database; call after the HTTP server stopped taking requests. */
  close(): Promise<void>;
}

export interface CreateGatewayOptions {
  now?: () => number;
  /** An already open database (tests share one per file); the gateway then leaves closing it to the caller. */
  database?: GatewayDatabase;
}

/** Each channel type's adapter, from the registry: handed down to whatever needs an adapter, never imported below. */
export const findProviderAdapter: ProviderAdapterLookup = (type) => providerRegistry[type];

/** config → store → services → app. Tests call this too, with their own config, and never listen. */
export async function createGateway(
  fileConfig: GatewayConfig,
  logger: Logger,
  options: CreateGatewayOptions = {},
): Promise<Gateway> {
  // This gateway's own copy: its price catalog replaces the live price and group fields with the store's (two
  // gateways built from one configuration, as in tests, must not share what each read from the store).
  const config: GatewayConfig = { ...fileConfig };
  // Before anything is opened: a channel whose settings do not fit its type never reaches the store.
  assertConfigChannelSettingsFit(config.channels, findProviderAdapter);
  // Redis first: a REDIS_URL that cannot connect stops the start before anything else is opened.
  const redisOptions = {
    connectTimeoutMs: config.redisTimeouts.connectTimeoutMs,
    commandTimeoutMs: config.redisTimeouts.commandTimeoutMs,
    keepAliveInitialDelayMs: config.redisTimeouts.keepAliveInitialDelayMs,
  };
  const redis = config.redisUrl ? await openRedis(config.redisUrl, logger, redisOptions) : undefined;
  const database =
    options.database ??
    (await openDatabase(config.databaseUrl, {
      sqliteCommitIntervalMs: config.sqliteCommitIntervalMs,
      postgresTimeouts: config.databaseTimeouts,
      postgresPoolSize: config.databasePoolSize,
      postgresPreparedStatements: config.databasePreparedStatements,
      onSqliteCommitError: (error) =>
        logger.error({ err: error }, "quota ledger commit failed; the writes of its window are lost"),
      onSqliteDeferredError: (error) =>
        logger.error({ err: error }, "a deferred quota ledger write failed; that one settlement is not applied"),
    }).catch(async (error: unknown) => {
      await redis?.close();
      throw error;
    }));
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const billing = createBillingService({ config, database, logger, now });
  let channelRouter: GatewayContext["channelRouter"] | undefined;
  let channelHealthReference: ChannelHealth | undefined;
  const metrics = createGatewayMetrics({
    countChannelsInCooldown: () => channelRouter?.countChannelsInCooldown() ?? 0,
    countAutoDisabled: () => channelRouter?.countAutoDisabled() ?? 0,
    countTasksByStatus: () => countTasksByStatus(database.db),
    ...(database.sqliteCommitWindow ? { countSqliteCommits: () => database.sqliteCommitWindow?.commits ?? 0 } : {}),
  });
  await syncConfigPrices(config, database, logger, now());
  const priceCatalog = createPriceCatalog(config, database);
  await priceCatalog.reload();
  const baseContext: Omit<GatewayContext, "channelRouter" | "channelChanges" | "priceChanges" | "userChanges"> = {
    priceCatalog,
    config,
    billing,
    database,
    keyCipher: createKeyCipher(config.secret),
    logger,
    keyRevealLimiter: createKeyRevealLimiter({
      ...config.keyRevealRateLimit,
      redis: redis?.client,
      keyPrefix: `${config.redisKeyPrefix}:key-reveal`,
      redisBudgetMs: config.redisTimeouts.requestBudgetMs,
      logger,
    }),
    signInThrottle: createSignInThrottle({
      ...config.signInLimits,
      redis: redis?.client,
      keyPrefix: config.redisKeyPrefix,
      redisBudgetMs: config.redisTimeouts.requestBudgetMs,
      logger,
    }),
    accessTimeRecorder: createAccessTimeRecorder(database.db, {
      intervalMs: 1000,
      dialect: database.dialect,
      onError: (error) => logger.error({ err: error }, "failed to record token access times"),
    }),
    tokenCache: createTokenCache({ ttlMs: config.tokenCacheTtlMs, maximumEntries: 100_000 }),
    trustedProxies: config.trustedProxies ? parseAllowList(config.trustedProxies) : undefined,
    rateLimiter: createTokenRateLimiter({
      redis: redis?.client,
      keyPrefix: `${config.redisKeyPrefix}:rate`,
      redisBudgetMs: config.redisTimeouts.requestBudgetMs,
      logger,
      onRefused: (limit) => metrics.rateLimited.inc({ limit }),
    }),
    conversationAffinity: createConversationAffinity({
      ttlMs: config.routing.affinityTtlSeconds * 1000,
      now: () => now() * 1000,
      redis: redis?.client,
      keyPrefix: `${config.redisKeyPrefix}:affinity`,
      redisBudgetMs: config.redisTimeouts.requestBudgetMs,
      logger,
    }),
    metrics,
    providers: createProviderServices(config, logger, now),
    findAdapter: findProviderAdapter,
    now,
  };
  await syncConfigChannels(baseContext);
  channelRouter = await createChannelRouter(baseContext);
  const unpricedModels = listUnpricedModels(channelRouter.listServedModels(), config.pricing);
  if (unpricedModels.length > 0) {
    logger.warn(
      { models: unpricedModels, allowUnpriced: config.allowUnpriced },
      config.allowUnpriced
        ? `served models without a price are billed at 0 (pricing.allow_unpriced): ${unpricedModels.join(", ")}`
        : `served models without a price are refused until the administrator prices them: ${unpricedModels.join(", ")}`,
    );
  }
  const channelChanges = await createChannelChangeBus({
    redis:
      redis && config.redisUrl
        ? {
            url: config.redisUrl,
            publisher: redis.client,
            topic: `${config.redisKeyPrefix}:channels-changed`,
            options: redisOptions,
          }
        : undefined,
    logger,
    // Channels and the health rules change together as far as other instances are concerned.
    reload: async () => {
      await channelRouter.reload();
      await channelHealthReference?.refreshRules();
    },
  });
  // Every instance keeps copies of these in memory: a change through one tells the others to re-read (or forget).
  const announceOn = (topic: string) =>
    redis && config.redisUrl
      ? {
          url: config.redisUrl,
          publisher: redis.client,
          topic: `${config.redisKeyPrefix}:${topic}`,
          options: redisOptions,
        }
      : undefined;
  const priceChanges = await createChangeBus({
    subject: "prices and groups",
    redis: announceOn("prices-changed"),
    logger,
    reload: () => priceCatalog.reload(),
  });
  const userChanges = await createChangeBus({
    subject: "users",
    redis: announceOn("users-changed"),
    logger,
    // Cached keys carry their owner's status, groups and wallet flag.
    reload: async () => baseContext.tokenCache.invalidateAll(),
  });
  const openRelays = createOpenRelayRegistry();
  const callbackDeliverer = createCallbackDeliverer({
    isAllowedAddress: createAddressRule(config.fetchAllowPrivate),
    now: baseContext.now,
  });
  const channelHealth = createChannelHealth(baseContext, {
    router: channelRouter,
    metrics,
    publishChange: () => channelChanges.publish(),
    notify: createHealthWebhookNotifier(config.channelHealth.webhook, callbackDeliverer, logger),
  });
  channelHealthReference = channelHealth;
  await channelHealth.refreshRules();
  const context: GatewayContext = {
    ...baseContext,
    channelRouter,
    channelChanges,
    channelHealth,
    priceChanges,
    userChanges,
    openRelays,
  };
  const reservationRecovery = startReservationRecovery(billing, logger, {
    olderThanSeconds: config.reservationRecoveryAfterSeconds,
    intervalMs: 10 * 60 * 1000,
  });
  const responseRouteSweep = startResponseRouteSweep(context, { intervalMs: 60 * 60 * 1000 });
  const usageRetention = startUsageRetention(context, { intervalMs: 60 * 60 * 1000, firstPassAfterMs: 60 * 1000 });
  const usageLogPartitioning = startUsageLogPartitioning(context, { intervalMs: 24 * 60 * 60 * 1000 });
  // Before the first request: this month's rows land in this month's partition. A failure is logged, not fatal (the
  // default partition takes the rows until the next run makes the month).
  await usageLogPartitioning.runOnce().catch(() => undefined);
  if (config.adminToken) await bootstrapRootUser(context, config.adminToken);
  // A claim keeps other pollers off a task while its poll runs; a poller that died frees its tasks after this.
  const taskLeaseMs = Math.max(4 * config.tasks.pollIntervalMs, 30_000);
  const taskCallbacks = createTaskCallbackSender(context, callbackDeliverer, {
    tries: config.tasks.callbackTries,
    backoffMs: config.tasks.callbackBackoffMs,
    // Longer than one try's budget (10 s), so no other instance takes a callback while its try runs.
    leaseMs: 30_000,
    sweepIntervalMs: Math.min(Math.max(config.tasks.callbackBackoffMs, 250), 5_000),
  });
  const videoTasks = createVideoTaskService(context, {
    leaseMs: taskLeaseMs,
    onFinished: (task) => taskCallbacks.send(task),
  });
  await videoTasks.settleInterrupted();
  // Callbacks a stopped process (or another instance) left undelivered, continued where their tries stood.
  await taskCallbacks.resumeDue();
  taskCallbacks.startSweeping();
  channelHealth.startProbing();
  const taskPoller = startTaskPoller(database, videoTasks, logger, {
    pollIntervalMs: config.tasks.pollIntervalMs,
    maxConcurrentPolls: config.tasks.maxConcurrentPolls,
    leaseMs: taskLeaseMs,
  });

  const app = createApp({
    logger,
    metrics,
    operator: {
      registry: metrics.registry,
      metricsToken: config.metricsToken,
      readinessChecks: [
        { name: "database", check: () => checkDatabase(database) },
        ...(redis ? [{ name: "redis", check: () => redis.client.ping().then(() => undefined) }] : []),
      ],
    },
    validateResponses: config.validateResponses,
    uploadFileSizeLimit: config.uploadFileSizeLimit,
    consoleFolder: config.consoleFolder,
    ...(config.corsOrigins ? { corsOrigins: config.corsOrigins } : {}),
    generations: {
      management: {
        handlers: createManagementHandlers(context, videoTasks),
        authenticate: createUserAuthenticator(context),
        jsonBodyLimit: config.managementBodyLimit,
      },
      openai: {
        handlers: createOpenaiHandlers(context, videoTasks),
        authenticate: createApiKeyAuthenticator(context, "openai"),
        jsonBodyLimit: config.jsonBodyLimit,
        fastLaneOperations: config.fastLane ? ["createChatCompletion", "createResponse", "createEmbedding"] : [],
      },
      native: {
        handlers: createNativeHandlers(context),
        authenticate: createApiKeyAuthenticator(context, "native"),
        jsonBodyLimit: config.jsonBodyLimit,
      },
      anthropic: {
        handlers: createAnthropicHandlers(context),
        authenticate: createApiKeyAuthenticator(context, "anthropic"),
        jsonBodyLimit: config.jsonBodyLimit,
      },
    },
  });
  return {
    app,
    context,
    async close() {
      await taskPoller.stop();
      await channelHealth.stop();
      // Scheduled retries and the sweep stop at once (their due times are on the tasks, for the next process); a try
      // under way is cut short by closing the deliverer and gives its claim back uncounted.
      const callbacksStopped = taskCallbacks.stop();
      await callbackDeliverer.close();
      await callbacksStopped;
      reservationRecovery.stop();
      await responseRouteSweep.stop();
      await usageRetention.stop();
      await usageLogPartitioning.stop();
      await context.accessTimeRecorder.stop();
      await billing.flush();
      await closeUpstreamDispatchers();
      if (!options.database) await database.close();
      await channelChanges.close();
      await priceChanges.close();
      await userChanges.close();
      await redis?.close();
    },
  };
}
