import { describe, expect, it } from "vitest";
import { RateLimitError } from "../errors/rate-limit-error.js";
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
});
