import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import type { Logger } from "../logging/logger.js";

export interface SharedRateLimiterOptions {
  points: number;
  durationSeconds: number;
  /** With Redis, every instance draws on one budget per key; without it the budget is this process's. */
  redis?: Redis;
  keyPrefix: string;
  logger: Logger;
  /** Logged once per Redis outage, when counting falls back to this process's memory. */
  fallbackMessage: string;
  /** The longest a caller waits on Redis before counting in memory (default 50 ms). */
  redisBudgetMs?: number;
}

/**
 * A budget per key, shared through Redis when there is one. With Redis down at request time the budget falls back
 * to this process's memory (rate-limiter-flexible's insurance limiter) instead of refusing everything or allowing
 * everything, and so does a Redis slower than the caller's wait budget; that is logged once per outage, since while it lasts each instance grants the full budget on its own.
 */
export function createSharedRateLimiter(options: SharedRateLimiterOptions): RateLimiterAbstract {
  const limits = { points: options.points, duration: options.durationSeconds };
  const { redis, logger } = options;
  if (!redis) return new RateLimiterMemory(limits);

  let fallbackLogged = false;
  redis.on("ready", () => {
    fallbackLogged = false;
  });
  class LoggedInsuranceLimiter extends RateLimiterMemory {
    override consume(
      key: string | number,
      pointsToConsume?: number,
      consumeOptions?: { [key: string]: unknown },
    ): Promise<RateLimiterRes> {
      if (!fallbackLogged) {
        fallbackLogged = true;
        logger.warn(options.fallbackMessage);
      }
      return super.consume(key, pointsToConsume, consumeOptions);
    }
  }
  const insuranceLimiter = new LoggedInsuranceLimiter(limits);
  return new RLWrapperTimeouts({
    limiter: new RateLimiterRedis({ ...limits, storeClient: redis, keyPrefix: options.keyPrefix, insuranceLimiter }),
    timeoutMs: options.redisBudgetMs ?? 50,
    insuranceLimiter,
  });
}
