import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { Logger } from "../logging/logger.js";
import { createSharedRateLimiter } from "../rate-limits/create-shared-rate-limiter.js";

export interface KeyRevealLimiterOptions {
  points: number;
  durationSeconds: number;
  /** With Redis, every instance draws on one budget per user; without it the budget is this process's. */
  redis?: Redis;
  logger: Logger;
}

export const keyRevealKeyPrefix = "gateway:key-reveal";

/** The per-user budget of key reveals, shared through Redis when there is one (createSharedRateLimiter). */
export function createKeyRevealLimiter(options: KeyRevealLimiterOptions): RateLimiterAbstract {
  return createSharedRateLimiter({
    ...options,
    keyPrefix: keyRevealKeyPrefix,
    fallbackMessage: "Redis unreachable: the key reveal budget is counted per instance until it is back",
  });
}
