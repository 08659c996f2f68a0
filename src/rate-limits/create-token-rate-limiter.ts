import type { Redis } from "ioredis";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { RateLimitError } from "../errors/gateway-error.js";
import { withinBudget } from "../cache/within-budget.js";
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
  /**
   * The requests and tokens counted so far in each token's current window (zeros when it has none), read where
   * requests are counted now; counts nothing. For the console's view of a user's keys against their limits.
   */
  readCurrentCounts(tokenIds: readonly number[]): Promise<Map<number, MinuteCounts>>;
}

/** What one token has used of its current one-minute window. */
export interface MinuteCounts {
  requests: number;
  tokens: number;
}

export interface TokenRateLimiterOptions {
  /** With Redis, every instance counts against one window per token; without it, this process's memory. */
  redis?: Redis;
  /** Prefix of the Redis keys (`<prefix>:rpm:<token id>`, `<prefix>:tpm:<token id>`). */
  keyPrefix: string;
  /**
   * The longest a request waits on Redis (default 50 ms): past it the request is counted in this process's memory,
   * as during an outage, and the late answer from Redis is ignored.
   */
  redisBudgetMs?: number;
  logger: Logger;
  /** Told of each refusal (metrics). */
  onRefused?: (limit: "rpm" | "tpm") => void;
}

interface Refusal {
  limit: "rpm" | "tpm";
  msBeforeNext: number;
}

/** One store of the counts: Redis (shared by the instances) or this process's memory. */
interface Counters {
  /** Counts the request and its tokens, or counts nothing and says which limit refused it. */
  count(token: TokenRecord, tokensToCount: number): Promise<Refusal | undefined>;
  /** Adds `change` (negative to give back) to the token's TPM count in the current window. */
  correct(tokenId: number, change: number): Promise<void>;
  /** The current window's counts of each token, without counting anything. */
  read(tokenIds: readonly number[]): Promise<Map<number, MinuteCounts>>;
}

const windowSeconds = 60;

/**
 * Per-key requests and tokens per minute, over a window of one minute that starts with the first request counted
 * in it. TPM counts the tokens a request is reserved for (its prompt estimate plus its output cap, at most the
 * whole limit, so a request larger than the limit runs alone in an empty window) and is corrected to the billed
 * tokens afterwards. A refused request takes its counts back, so refusals do not stretch the window and a large TPM
 * request that does not fit does not starve the small ones behind it.
 *
 * With Redis both counters are checked in one round trip (one script, atomic), and a request never waits on Redis
 * longer than `redisBudgetMs`: Redis down, not connected, or slow, the request is counted in this process's memory
 * instead (logged once per outage) — never no limit, never a request held up by Redis. Reading the counts keeps
 * to the same budget, past which it answers this process's own counts.
 */
export function createTokenRateLimiter(options: TokenRateLimiterOptions): TokenRateLimiter {
  const local = createMemoryCounters(options.keyPrefix);
  const { redis } = options;
  const shared = redis ? createRedisCounters(redis, options.keyPrefix) : undefined;
  const budgetMs = options.redisBudgetMs ?? 50;

  // One line per outage; a reconnection re-arms it.
  let fallbackLogged = false;
  redis?.on("ready", () => {
    fallbackLogged = false;
  });
  const noteFallback = () => {
    if (fallbackLogged) return;
    fallbackLogged = true;
    options.logger.warn("Redis unreachable: per-key rate limits are counted per instance until it is back");
  };

  async function count(token: TokenRecord, tokensToCount: number): Promise<Refusal | undefined> {
    if (!redis || !shared) return local.count(token, tokensToCount);
    if (redis.status !== "ready") {
      noteFallback();
      return local.count(token, tokensToCount);
    }
    const counted = shared.count(token, tokensToCount);
    const answer = await withinBudget(counted, budgetMs);
    if (answer.answered) return answer.value;
    noteFallback();
    return local.count(token, tokensToCount);
  }

  return {
    async admit(token, reservedTokens) {
      if (token.rpmLimit <= 0 && token.tpmLimit <= 0) return 0;
      // At least one: every admitted request is corrected later, and a zero count could not be told apart.
      const tokensToCount = token.tpmLimit > 0 ? Math.max(1, Math.min(Math.ceil(reservedTokens), token.tpmLimit)) : 0;
      const refusal = await count(token, tokensToCount);
      if (refusal) {
        options.onRefused?.(refusal.limit);
        throw refusalError(
          refusal,
          refusal.limit === "rpm" ? `${token.rpmLimit} requests` : `${token.tpmLimit} tokens`,
        );
      }
      return tokensToCount;
    },
    correct(token, countedTokens, settledTokens, requestId) {
      if (countedTokens === 0 || settledTokens === countedTokens) return;
      // Where the request was counted is not kept: the correction goes where requests are counted now.
      const counters = shared && redis?.status === "ready" ? shared : local;
      counters
        .correct(token.id, settledTokens - countedTokens)
        .catch((error: unknown) => options.logger.warn({ err: error, requestId }, "could not correct a TPM count"));
    },
    async readCurrentCounts(tokenIds) {
      if (tokenIds.length === 0) return new Map();
      if (!redis || !shared || redis.status !== "ready") return local.read(tokenIds);
      const answer = await withinBudget(shared.read(tokenIds), budgetMs);
      return answer.answered ? answer.value : local.read(tokenIds);
    },
  };
}

function refusalError(refusal: Refusal, allowance: string): RateLimitError {
  const retryAfterSeconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
  return new RateLimitError(
    `Rate limit exceeded: this API key allows ${allowance} per minute; retry in ${retryAfterSeconds} seconds.`,
    { retryAfterSeconds },
  );
}

function ignore(): void {}

/** A count as stored; a correction can take a window's TPM below zero, which means nothing used. */
function toCount(stored: number | string | null | undefined): number {
  const count = Number(stored ?? 0);
  return Number.isFinite(count) && count > 0 ? count : 0;
}

/** Counts only (a window of one minute that never refuses); the comparison with the token's limit is ours. */
function createMemoryCounters(keyPrefix: string): Counters {
  const countOnly = { points: Number.MAX_SAFE_INTEGER, duration: windowSeconds };
  const requests = new RateLimiterMemory({ ...countOnly, keyPrefix: `${keyPrefix}:rpm` });
  const tokens = new RateLimiterMemory({ ...countOnly, keyPrefix: `${keyPrefix}:tpm` });
  return {
    async count(token, tokensToCount) {
      if (token.rpmLimit > 0) {
        const counted = await requests.consume(token.id, 1);
        if (counted.consumedPoints > token.rpmLimit) {
          void requests.reward(token.id, 1).catch(ignore);
          return { limit: "rpm", msBeforeNext: counted.msBeforeNext };
        }
      }
      if (tokensToCount === 0) return undefined;
      const counted = await tokens.consume(token.id, tokensToCount);
      if (counted.consumedPoints > token.tpmLimit) {
        void tokens.reward(token.id, tokensToCount).catch(ignore);
        if (token.rpmLimit > 0) void requests.reward(token.id, 1).catch(ignore);
        return { limit: "tpm", msBeforeNext: counted.msBeforeNext };
      }
      return undefined;
    },
    async correct(tokenId, change) {
      await (change > 0 ? tokens.penalty(tokenId, change) : tokens.reward(tokenId, -change));
    },
    async read(tokenIds) {
      const counts = new Map<number, MinuteCounts>();
      await Promise.all(
        tokenIds.map(async (tokenId) => {
          const [counted, used] = await Promise.all([requests.get(tokenId), tokens.get(tokenId)]);
          counts.set(tokenId, { requests: toCount(counted?.consumedPoints), tokens: toCount(used?.consumedPoints) });
        }),
      );
      return counts;
    },
  };
}

// KEYS: the RPM and TPM counters. ARGV: rpm limit (0: none), tokens to count (0: none), tpm limit, window in ms.
// Answers {0, 0} when admitted, or {1 (rpm) | 2 (tpm), milliseconds until the window frees} with nothing counted.
const countScript = `
local function count(key, amount, windowMs)
  local total = redis.call('INCRBY', key, amount)
  local remaining = redis.call('PTTL', key)
  if remaining < 0 then
    redis.call('PEXPIRE', key, windowMs)
    remaining = windowMs
  end
  return total, remaining
end
local rpmLimit = tonumber(ARGV[1])
local tokens = tonumber(ARGV[2])
local tpmLimit = tonumber(ARGV[3])
local windowMs = tonumber(ARGV[4])
if rpmLimit > 0 then
  local total, remaining = count(KEYS[1], 1, windowMs)
  if total > rpmLimit then
    redis.call('DECRBY', KEYS[1], 1)
    return {1, remaining}
  end
end
if tokens > 0 then
  local total, remaining = count(KEYS[2], tokens, windowMs)
  if total > tpmLimit then
    redis.call('DECRBY', KEYS[2], tokens)
    if rpmLimit > 0 then redis.call('DECRBY', KEYS[1], 1) end
    return {2, remaining}
  end
end
return {0, 0}
`;

// KEYS: the TPM counter. ARGV: the change. A window that already ended is left alone (nothing left to correct).
const correctScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('INCRBY', KEYS[1], ARGV[1])
end
return 0
`;

interface RateLimitScripts {
  gatewayCountRateLimits(rpmKey: string, tpmKey: string, ...limits: number[]): Promise<[number, number]>;
  gatewayCorrectTokenCount(tpmKey: string, change: number): Promise<number>;
}

function createRedisCounters(redis: Redis, keyPrefix: string): Counters {
  // ioredis sends a defined script by its hash (EVALSHA), and its text only the first time Redis lacks it.
  redis.defineCommand("gatewayCountRateLimits", { numberOfKeys: 2, lua: countScript });
  redis.defineCommand("gatewayCorrectTokenCount", { numberOfKeys: 1, lua: correctScript });
  const scripts = redis as unknown as RateLimitScripts;
  const windowMs = windowSeconds * 1000;
  return {
    async count(token, tokensToCount) {
      const [verdict, msBeforeNext] = await scripts.gatewayCountRateLimits(
        `${keyPrefix}:rpm:${token.id}`,
        `${keyPrefix}:tpm:${token.id}`,
        Math.max(0, token.rpmLimit),
        tokensToCount,
        Math.max(0, token.tpmLimit),
        windowMs,
      );
      if (verdict === 0) return undefined;
      return { limit: verdict === 1 ? "rpm" : "tpm", msBeforeNext };
    },
    async correct(tokenId, change) {
      await scripts.gatewayCorrectTokenCount(`${keyPrefix}:tpm:${tokenId}`, change);
    },
    async read(tokenIds) {
      // One MGET for every key of every token: one round trip, however many keys the user has. An expired window's
      // keys are gone, so they read as zero.
      const keys = tokenIds.flatMap((tokenId) => [`${keyPrefix}:rpm:${tokenId}`, `${keyPrefix}:tpm:${tokenId}`]);
      const values = await redis.mget(...keys);
      return new Map(
        tokenIds.map((tokenId, index) => [
          tokenId,
          { requests: toCount(values[index * 2]), tokens: toCount(values[index * 2 + 1]) },
        ]),
      );
    },
  };
}
