import type { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import { RateLimitError } from "../errors/rate-limit-error.js";
import type { Logger } from "../logging/logger.js";
import type { TokenRecord } from "../store/tokens/token-record.js";

export interface TokenRateLimiter {
  /**
   * Counts one request and `reservedTokens` against the token's `rpm_limit` and `tpm_limit`, or throws
   * RateLimitError (429, `Retry-After`) and counts nothing. Returns the tokens counted, to correct once the
   * request is settled; 0 when the token has no TPM limit.
   */
  admit(token: TokenRecord, reservedTokens: number): Promise<number>;
  /**
   * Replaces `countedTokens` by the tokens actually billed (prompt plus completion); a no-op when equal. A failed
   * correction is logged with `requestId`.
   */
  correct(token: TokenRecord, countedTokens: number, settledTokens: number, requestId: string): void;
}

export interface TokenRateLimiterOptions {
  /** With Redis, every instance counts against one window per token; without it, this process's memory. */
  redis?: Redis;
  /** Prefix of the Redis keys (`<prefix>:rpm:<token id>`, `<prefix>:tpm:<token id>`). */
  keyPrefix: string;
  logger: Logger;
  /** Told of each refusal (metrics). */
  onRefused?: (limit: "rpm" | "tpm") => void;
}

const windowSeconds = 60;
// Each token has its own limit, so the limiters only count (a window of one minute that never refuses) and the
// comparison with the token's limit is ours: a refused request takes its count back, so refusals do not stretch
// the window and a large TPM request that does not fit does not starve the small ones behind it.
const countOnly = { points: Number.MAX_SAFE_INTEGER, duration: windowSeconds };

/**
 * Per-key requests and tokens per minute (issue 16), over a window of one minute that starts with the first
 * request counted in it. TPM counts the tokens a request is reserved for (its prompt estimate plus its output cap,
 * at most the whole limit, so a request larger than the limit runs alone in an empty window) and is corrected to
 * the billed tokens afterwards. With Redis down the counts fall back to this process's memory (logged once per
 * outage): never no limit, never a request waiting on Redis.
 */
export function createTokenRateLimiter(options: TokenRateLimiterOptions): TokenRateLimiter {
  // One line per outage for both counters; a reconnection re-arms it.
  let fallbackLogged = false;
  options.redis?.on("ready", () => {
    fallbackLogged = false;
  });
  const noteFallback = () => {
    if (fallbackLogged) return;
    fallbackLogged = true;
    options.logger.warn("Redis unreachable: per-key rate limits are counted per instance until it is back");
  };
  const requests = createCounter(options, "rpm", noteFallback);
  const tokens = createCounter(options, "tpm", noteFallback);

  return {
    async admit(token, reservedTokens) {
      if (token.rpmLimit > 0) {
        const counted = await requests.consume(token.id, 1);
        if (counted.consumedPoints > token.rpmLimit) {
          void requests.reward(token.id, 1).catch(ignore);
          options.onRefused?.("rpm");
          throw refusal(counted, `${token.rpmLimit} requests`);
        }
      }
      if (token.tpmLimit <= 0) return 0;
      // At least one: every admitted request is corrected later, and a zero count could not be told apart.
      const tokensToCount = Math.max(1, Math.min(Math.ceil(reservedTokens), token.tpmLimit));
      const counted = await tokens.consume(token.id, tokensToCount);
      if (counted.consumedPoints > token.tpmLimit) {
        void tokens.reward(token.id, tokensToCount).catch(ignore);
        if (token.rpmLimit > 0) void requests.reward(token.id, 1).catch(ignore);
        options.onRefused?.("tpm");
        throw refusal(counted, `${token.tpmLimit} tokens`);
      }
      return tokensToCount;
    },
    correct(token, countedTokens, settledTokens, requestId) {
      if (countedTokens === 0 || settledTokens === countedTokens) return;
      const change =
        settledTokens > countedTokens
          ? tokens.penalty(token.id, settledTokens - countedTokens)
          : tokens.reward(token.id, countedTokens - settledTokens);
      change.catch((error: unknown) => options.logger.warn({ err: error, requestId }, "could not correct a TPM count"));
    },
  };
}

function refusal(counted: RateLimiterRes, allowance: string): RateLimitError {
  const retryAfterSeconds = Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
  return new RateLimitError(
    `Rate limit exceeded: this API key allows ${allowance} per minute; retry in ${retryAfterSeconds} seconds.`,
    { retryAfterSeconds },
  );
}

function ignore(): void {}

function createCounter(
  options: TokenRateLimiterOptions,
  kind: "rpm" | "tpm",
  noteFallback: () => void,
): RateLimiterAbstract {
  const keyPrefix = `${options.keyPrefix}:${kind}`;
  const { redis } = options;
  if (!redis) return new RateLimiterMemory({ ...countOnly, keyPrefix });

  class LoggedInsuranceLimiter extends RateLimiterMemory {
    override consume(
      key: string | number,
      pointsToConsume?: number,
      consumeOptions?: { [key: string]: unknown },
    ): Promise<RateLimiterRes> {
      noteFallback();
      return super.consume(key, pointsToConsume, consumeOptions);
    }
  }
  return new RateLimiterRedis({
    ...countOnly,
    storeClient: redis,
    keyPrefix,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new LoggedInsuranceLimiter({ ...countOnly, keyPrefix }),
  });
}
