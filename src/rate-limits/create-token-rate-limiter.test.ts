import crypto from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openRedis } from "../cache/open-redis.js";
import { RateLimitError } from "../errors/gateway-error.js";
import { createLogger } from "../logging/logger.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import { rejectionOf } from "../../test/support/rejection-of.js";
import { createTokenRateLimiter } from "./create-token-rate-limiter.js";

const logger = createLogger({ level: "silent" });
let nextTokenId = 1;
const tokenWith = (limits: Pick<TokenRecord, "rpmLimit" | "tpmLimit">) =>
  ({ id: nextTokenId++, ...limits }) as TokenRecord;

describe("createTokenRateLimiter (in memory)", () => {
  it("admits rpm_limit requests a minute and refuses the next with the seconds until the window frees", async () => {
    const limiter = createTokenRateLimiter({ keyPrefix: "unit", logger });
    const token = tokenWith({ rpmLimit: 2, tpmLimit: 0 });
    expect(await limiter.admit(token, 100)).toBe(0);
    expect(await limiter.admit(token, 100)).toBe(0);
    const refusal = await rejectionOf(limiter.admit(token, 100), RateLimitError);
    expect(refusal.status).toBe(429);
    expect(refusal.code).toBe("rate_limit_exceeded");
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Refusals take their count back: they do not keep the key locked out longer.
    await rejectionOf(limiter.admit(token, 100), RateLimitError);
    expect(await limiter.admit(tokenWith({ rpmLimit: 2, tpmLimit: 0 }), 1)).toBe(0);
  });

  it("counts reserved tokens (at most the whole limit) and corrects them to the billed ones", async () => {
    const refused: string[] = [];
    const limiter = createTokenRateLimiter({ keyPrefix: "unit", logger, onRefused: (limit) => refused.push(limit) });
    const token = tokenWith({ rpmLimit: 0, tpmLimit: 1_000 });
    expect(await limiter.admit(token, 5_000)).toBe(1_000);
    await rejectionOf(limiter.admit(token, 1), RateLimitError);
    limiter.correct(token, 1_000, 100, "request-under-test");
    await new Promise((resolve) => setImmediate(resolve));
    expect(await limiter.admit(token, 900)).toBe(900);
    await rejectionOf(limiter.admit(token, 1), RateLimitError);
    // A settled request that used more than it reserved is charged the difference.
    limiter.correct(token, 900, 950, "request-under-test");
    await new Promise((resolve) => setImmediate(resolve));
    limiter.correct(token, 900, 0, "request-under-test");
    await new Promise((resolve) => setImmediate(resolve));
    expect(await limiter.admit(token, 850)).toBe(850);
    expect(refused).toEqual(["tpm", "tpm"]);
  });

  it("refusing on TPM gives back the request it counted on RPM", async () => {
    const limiter = createTokenRateLimiter({ keyPrefix: "unit", logger });
    const token = tokenWith({ rpmLimit: 2, tpmLimit: 10 });
    expect(await limiter.admit(token, 10)).toBe(10);
    await rejectionOf(limiter.admit(token, 5), RateLimitError);
    limiter.correct(token, 10, 0, "request-under-test");
    await new Promise((resolve) => setImmediate(resolve));
    expect(await limiter.admit(token, 5)).toBe(5);
    await rejectionOf(limiter.admit(token, 1), RateLimitError);
  });

  it("reads each token's current requests and tokens without counting anything", async () => {
    const limiter = createTokenRateLimiter({ keyPrefix: "unit", logger });
    const token = tokenWith({ rpmLimit: 3, tpmLimit: 100 });
    const untouched = tokenWith({ rpmLimit: 5, tpmLimit: 0 });
    await limiter.admit(token, 30);
    await limiter.admit(token, 20);
    limiter.correct(token, 20, 5, "request-under-test");
    await new Promise((resolve) => setImmediate(resolve));
    const counts = await limiter.readCurrentCounts([token.id, untouched.id]);
    expect(counts.get(token.id)).toEqual({ requests: 2, tokens: 35 });
    expect(counts.get(untouched.id)).toEqual({ requests: 0, tokens: 0 });
    // Reading again counts nothing: the third request of three still fits, the fourth does not.
    expect(await limiter.readCurrentCounts([token.id])).toEqual(new Map([[token.id, { requests: 2, tokens: 35 }]]));
    expect(await limiter.admit(token, 1)).toBe(1);
    await rejectionOf(limiter.admit(token, 1), RateLimitError);
    expect((await limiter.readCurrentCounts([token.id])).get(token.id)).toEqual({ requests: 3, tokens: 36 });
  });
});

describe("createTokenRateLimiter (with Redis)", async () => {
  const redis = await openRedis(`redis://127.0.0.1:${Number(process.env.TEST_REDIS_PORT ?? 6379)}`, logger);
  const keyPrefix = `test-${crypto.randomBytes(6).toString("hex")}:rate`;
  afterAll(async () => {
    const keys = await redis.client.keys(`${keyPrefix}:*`);
    if (keys.length > 0) await redis.client.del(...keys);
    await redis.close();
  });

  it("counts both limits in one script: RPM and TPM windows, refusals taking their counts back", async () => {
    const limiter = createTokenRateLimiter({ redis: redis.client, keyPrefix, logger, redisBudgetMs: 5_000 });
    const token = tokenWith({ rpmLimit: 2, tpmLimit: 10 });
    expect(await limiter.admit(token, 4)).toBe(4);
    await rejectionOf(limiter.admit(token, 7), RateLimitError);
    expect(await redis.client.mget(`${keyPrefix}:rpm:${token.id}`, `${keyPrefix}:tpm:${token.id}`)).toEqual(["1", "4"]);
    expect(await limiter.admit(token, 6)).toBe(6);
    const refusal = await rejectionOf(limiter.admit(token, 1), RateLimitError);
    expect(refusal.message).toMatch(/allows 2 requests per minute/);
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
    limiter.correct(token, 6, 1, "request-under-test");
    await expect.poll(() => redis.client.get(`${keyPrefix}:tpm:${token.id}`)).toBe("5");
    expect(await redis.client.pttl(`${keyPrefix}:tpm:${token.id}`)).toBeGreaterThan(50_000);
  });

  it("shares the counts between two limiters (instances) on one Redis", async () => {
    const first = createTokenRateLimiter({ redis: redis.client, keyPrefix, logger, redisBudgetMs: 5_000 });
    const second = createTokenRateLimiter({ redis: redis.client, keyPrefix, logger, redisBudgetMs: 5_000 });
    const token = tokenWith({ rpmLimit: 3, tpmLimit: 0 });
    await first.admit(token, 1);
    await second.admit(token, 1);
    await first.admit(token, 1);
    await rejectionOf(second.admit(token, 1), RateLimitError);
  });

  it("reads the counts every instance made, in one MGET, without counting anything", async () => {
    const first = createTokenRateLimiter({ redis: redis.client, keyPrefix, logger, redisBudgetMs: 5_000 });
    const second = createTokenRateLimiter({ redis: redis.client, keyPrefix, logger, redisBudgetMs: 5_000 });
    const token = tokenWith({ rpmLimit: 3, tpmLimit: 100 });
    const untouched = tokenWith({ rpmLimit: 0, tpmLimit: 50 });
    await first.admit(token, 30);
    await second.admit(token, 20);
    const mget = vi.spyOn(redis.client, "mget");
    const counts = await second.readCurrentCounts([token.id, untouched.id]);
    expect(mget).toHaveBeenCalledTimes(1);
    mget.mockRestore();
    expect(counts.get(token.id)).toEqual({ requests: 2, tokens: 50 });
    expect(counts.get(untouched.id)).toEqual({ requests: 0, tokens: 0 });
    expect(await redis.client.mget(`${keyPrefix}:rpm:${token.id}`, `${keyPrefix}:tpm:${token.id}`)).toEqual([
      "2",
      "50",
    ]);
    expect(await redis.client.exists(`${keyPrefix}:rpm:${untouched.id}`, `${keyPrefix}:tpm:${untouched.id}`)).toBe(0);
  });
});

describe("createTokenRateLimiter when Redis does not answer", () => {
  afterEach(() => vi.useRealTimers());

  it("waits no longer than the budget, then counts in this process's memory and says so once", async () => {
    vi.useFakeTimers();
    const warnings: string[] = [];
    const silentLogger = { ...logger, warn: (message: string) => warnings.push(message) } as unknown as typeof logger;
    // A connection that looks ready and never answers: the silent network loss the budget is for.
    const neverAnswering = {
      status: "ready",
      on: () => undefined,
      defineCommand(name: string) {
        (this as Record<string, unknown>)[name] = () => new Promise(() => undefined);
      },
    } as unknown as Redis;
    const limiter = createTokenRateLimiter({
      redis: neverAnswering,
      keyPrefix: "unit-silent",
      logger: silentLogger,
      redisBudgetMs: 50,
    });
    const token = tokenWith({ rpmLimit: 1, tpmLimit: 0 });
    let outcome: string | undefined;
    void limiter.admit(token, 1).then(() => (outcome = "admitted"));
    await vi.advanceTimersByTimeAsync(49);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe("admitted");
    // Counted locally: the second request of a one-request-a-minute key is refused by this process alone.
    const second = limiter.admit(token, 1).then(
      () => "admitted",
      (error: unknown) => (error instanceof RateLimitError ? "refused" : "failed"),
    );
    await vi.advanceTimersByTimeAsync(50);
    expect(await second).toBe("refused");
    expect(warnings).toEqual(["Redis unreachable: per-key rate limits are counted per instance until it is back"]);
  });

  it("reads the counts for no longer than the budget, then answers this process's own counts", async () => {
    vi.useFakeTimers();
    const neverAnswering = {
      status: "ready",
      on: () => undefined,
      defineCommand(name: string) {
        (this as Record<string, unknown>)[name] = () => new Promise(() => undefined);
      },
      mget: () => new Promise(() => undefined),
    } as unknown as Redis;
    const limiter = createTokenRateLimiter({
      redis: neverAnswering,
      keyPrefix: "unit-silent-read",
      logger,
      redisBudgetMs: 50,
    });
    const token = tokenWith({ rpmLimit: 5, tpmLimit: 0 });
    // The admission also waits out the budget, then is counted in this process's memory.
    const admitted = limiter.admit(token, 1);
    await vi.advanceTimersByTimeAsync(50);
    await admitted;
    let counts: Map<number, { requests: number; tokens: number }> | undefined;
    void limiter.readCurrentCounts([token.id]).then((answer) => (counts = answer));
    await vi.advanceTimersByTimeAsync(49);
    expect(counts).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(counts?.get(token.id)).toEqual({ requests: 1, tokens: 0 });
  });
});
