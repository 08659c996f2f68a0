import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import type { Logger } from "../logging/logger.js";

export interface KeyRevealLimiterOptions {
  points: number;
  durationSeconds: number;
  /** With Redis, every instance draws on one budget per user; without it the budget is this process's. */
  redis?: Redis;
  logger: Logger;
}

export const keyRevealKeyPrefix = "gateway:key-reveal";

/**
 * The per-user budget of key reveals. With Redis down at request time the budget falls back to this process's
 * memory (rate-limiter-flexible's insurance limiter) instead of refusing every reveal or allowing unlimited ones;
 * that is logged once per outage, since while it lasts each instance grants the full budget on its own.
 */
export function createKeyRevealLimiter(options: KeyRevealLimiterOptions): RateLimiterAbstract {
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
      options?: { [key: string]: unknown },
    ): Promise<RateLimiterRes> {
      if (!fallbackLogged) {
        fallbackLogged = true;
        logger.warn("Redis unreachable: the key reveal budget is counted per instance until it is back");
      }
      return super.consume(key, pointsToConsume, options);
    }
  }
  return new RateLimiterRedis({
    ...limits,
    storeClient: redis,
    keyPrefix: keyRevealKeyPrefix,
    insuranceLimiter: new LoggedInsuranceLimiter(limits),
  });
}
