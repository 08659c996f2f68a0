import crypto from "node:crypto";
import type { Redis } from "ioredis";
import { RateLimiterRes } from "rate-limiter-flexible";
import type { SignInLimits } from "../config/gateway-config.js";
import { RateLimitError } from "../errors/gateway-error.js";
import type { Logger } from "../logging/logger.js";
import { createSharedRateLimiter } from "../rate-limits/create-shared-rate-limiter.js";

export interface SignInThrottle {
  /** Throws a RateLimitError (429, Retry-After) while the username or the address has no failures left. */
  assertAllowed(username: string, address: string): Promise<void>;
  /** Counts a failed sign-in against both. */
  recordFailure(username: string, address: string): Promise<void>;
  /** A good password clears the username's count (the address keeps its own). */
  recordSuccess(username: string): Promise<void>;
}

export interface SignInThrottleOptions extends SignInLimits {
  redis?: Redis;
  keyPrefix: string;
  /** The longest a sign-in waits on Redis (default 50 ms); past it, this process's count decides. */
  redisBudgetMs?: number;
  logger: Logger;
}

/**
 * Password guessing is throttled per username (someone trying one account) and per client address (someone trying
 * many), counted in Redis when configured so every instance sees the same failures, in memory otherwise. Only
 * failures count, so a user who signs in correctly is never slowed down by their own successes.
 */
export function createSignInThrottle(options: SignInThrottleOptions): SignInThrottle {
  const fallbackMessage = "Redis unreachable: failed sign-ins are counted per instance until it is back";
  const byUsername = createSharedRateLimiter({
    points: options.failuresPerUsername,
    durationSeconds: options.windowSeconds,
    redis: options.redis,
    keyPrefix: `${options.keyPrefix}:sign-in:username`,
    logger: options.logger,
    fallbackMessage,
    redisBudgetMs: options.redisBudgetMs,
  });
  const byAddress = createSharedRateLimiter({
    points: options.failuresPerAddress,
    durationSeconds: options.windowSeconds,
    redis: options.redis,
    keyPrefix: `${options.keyPrefix}:sign-in:address`,
    logger: options.logger,
    fallbackMessage,
    redisBudgetMs: options.redisBudgetMs,
  });
  // A username is whatever the client typed: a digest keeps the stored key short and free of odd characters.
  const usernameKey = (username: string) => crypto.createHash("sha256").update(username).digest("base64url");
  const ignoreSpentBudget = (rejection: unknown) => {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
  };

  return {
    async assertAllowed(username, address) {
      const [forUsername, forAddress] = await Promise.all([
        byUsername.get(usernameKey(username)),
        byAddress.get(address),
      ]);
      const waits = [
        forUsername && forUsername.consumedPoints >= options.failuresPerUsername ? forUsername.msBeforeNext : 0,
        forAddress && forAddress.consumedPoints >= options.failuresPerAddress ? forAddress.msBeforeNext : 0,
      ];
      const waitMs = Math.max(...waits);
      if (waitMs <= 0) return;
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new RateLimitError(`Too many failed sign-ins, retry in ${retryAfterSeconds} seconds.`, {
        retryAfterSeconds,
      });
    },
    async recordFailure(username, address) {
      await Promise.all([
        byUsername.consume(usernameKey(username)).catch(ignoreSpentBudget),
        byAddress.consume(address).catch(ignoreSpentBudget),
      ]);
    },
    async recordSuccess(username) {
      await byUsername.delete(usernameKey(username));
    },
  };
}
