import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { TokenCache } from "./auth/create-token-cache.js";
import type { AllowList } from "./auth/ip/allow-list.js";
import type { BillingService } from "./billing/billing-service.js";
import type { ChangeBus } from "./cache/create-change-bus.js";
import type { ChannelChangeBus } from "./channels/create-channel-change-bus.js";
import type { ChannelRouter } from "./channels/channel-router.js";
import type { ChannelHealth } from "./channels/health/channel-health.js";
import type { ConversationAffinity } from "./channels/create-conversation-affinity.js";
import type { GatewayConfig } from "./config/gateway-config.js";
import type { KeyCipher } from "./keys/create-key-cipher.js";
import type { ProviderAdapterLookup } from "./providers/contract/provider-adapter-lookup.js";
import type { ProviderServices } from "./providers/contract/provider-services.js";
import type { Logger } from "./logging/logger.js";
import type { PriceCatalog } from "./pricing/price-catalog.js";
import type { OpenRelayRegistry } from "./relay/create-open-relay-registry.js";
import type { GatewayDatabase } from "./store/gateway-database.js";
import type { GatewayMetrics } from "./metrics/gateway-metrics.js";
import type { TokenRateLimiter } from "./rate-limits/create-token-rate-limiter.js";
import type { AccessTimeRecorder } from "./tokens/create-access-time-recorder.js";
import type { SignInThrottle } from "./users/create-sign-in-throttle.js";

/** What handlers and services share for the life of the process; built once by createGateway. */
export interface GatewayContext {
  config: GatewayConfig;
  database: GatewayDatabase;
  keyCipher: KeyCipher;
  logger: Logger;
  keyRevealLimiter: RateLimiterAbstract;
  /** Failed password sign-ins per username and per client address, shared through Redis when configured. */
  signInThrottle: SignInThrottle;
  accessTimeRecorder: AccessTimeRecorder;
  /** API key lookups, kept briefly; token changes through this instance invalidate them. */
  tokenCache: TokenCache;
  billing: BillingService;
  trustedProxies: AllowList | undefined;
  channelRouter: ChannelRouter;
  /** Announces admin channel changes to the other instances (a no-op without REDIS_URL). */
  channelChanges: ChannelChangeBus;
  /** Takes channels and keys whose credential the upstream refuses out of routing; absent in unit-test contexts. */
  channelHealth?: ChannelHealth;
  /** Re-reads prices and groups from the store into this instance's `config` (src/pricing/price-catalog.ts). */
  priceCatalog: PriceCatalog;
  /** Announces admin changes of prices and groups to the other instances (a no-op without REDIS_URL). */
  priceChanges: ChangeBus;
  /**
   * Announces that a user changed (disabled, deleted, groups or wallet flag) so the other instances drop the keys
   * they cached at once, not after the cache's lifetime (a no-op without REDIS_URL).
   */
  userChanges: ChangeBus;
  /** Per-key requests and tokens per minute (rpm_limit, tpm_limit), shared through Redis when configured. */
  rateLimiter: TokenRateLimiter;
  /** The channel and key each conversation was last served by, shared through Redis when configured. */
  conversationAffinity: ConversationAffinity;
  metrics: GatewayMetrics;
  /** What provider adapters share (downloaders, safety settings, logger, clock), built once. */
  providers: ProviderServices;
  /** The adapter of each channel type, from the registry (the composition root builds it). */
  findAdapter: ProviderAdapterLookup;
  /** Upstream calls in flight, for a graceful stop (src/main.ts); absent in contexts built for unit tests. */
  openRelays?: OpenRelayRegistry;
  /** Unix seconds; injectable so tests can move time. */
  now(): number;
}
