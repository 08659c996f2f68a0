import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { Logger } from "../logging/logger.js";
import { createSharedRateLimiter } from "../rate-limits/create-shared-rate-limiter.js";

export interface KeyRevealLimiterOptions {
  points: number;
  durationSeconds: number;
  /** With Redis, every instance draws on one budget per user; without it the budget is this process's. */
  redis?: Redis;
  /** Prefix of the Redis keys (`<REDIS_KEY_PREFIX>:key-reveal`, then `:<user id>`). */
  keyPrefix: string;
  /** The longest a reveal waits on Redis (default 50 ms); past it, this process's budget decides, as in an outage. */
  redisBudgetMs?: number;
  logger: Logger;
}

/** The per-user budget of key reveals, shared through Redis when there is one (createSharedRateLimiter). */
export function createKeyRevealLimiter(options: KeyRevealLimiterOptions): RateLimiterAbstract {
  return createSharedRateLimiter({
    ...options,
    fallbackMessage: "Redis unreachable: the key reveal budget is counted per instance until it is back",
  });
}
