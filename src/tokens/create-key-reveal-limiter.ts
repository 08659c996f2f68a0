import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import type { Logger } from "../logging/logger.js";

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
  const insuranceLimiter = new LoggedInsuranceLimiter(limits);
  return new RLWrapperTimeouts({
    limiter: new RateLimiterRedis({ ...limits, storeClient: redis, keyPrefix: options.keyPrefix, insuranceLimiter }),
    timeoutMs: options.redisBudgetMs ?? 50,
    insuranceLimiter,
  });
}
