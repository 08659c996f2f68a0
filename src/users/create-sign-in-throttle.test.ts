import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { openRedis } from "../cache/open-redis.js";
import { RateLimitError } from "../errors/gateway-error.js";
import { rejectionOf } from "../../test/support/rejection-of.js";
import { createSignInThrottle } from "./create-sign-in-throttle.js";

const logger = pino({ level: "silent" });
const limits = { failuresPerUsername: 3, failuresPerAddress: 5, windowSeconds: 60 };

describe("createSignInThrottle in memory", () => {
  it("refuses a username after its failures, with the wait, and clears it on a good password", async () => {
    const throttle = createSignInThrottle({ ...limits, keyPrefix: "test", logger });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await throttle.assertAllowed("root", "10.0.0.1");
      await throttle.recordFailure("root", "10.0.0.1");
    }
    const refused = await rejectionOf(throttle.assertAllowed("root", "10.0.0.2"), RateLimitError);
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect(refused.message).toMatch(/^Too many failed sign-ins, retry in \d+ seconds\.$/);
    // Another name from the same address is still allowed: that address has 3 of its 5.
    await throttle.assertAllowed("alice", "10.0.0.1");
    await throttle.recordSuccess("root");
    await throttle.assertAllowed("root", "10.0.0.2");
  });

  it("refuses an address that tries many usernames", async () => {
    const throttle = createSignInThrottle({ ...limits, keyPrefix: "test", logger });
    for (let attempt = 0; attempt < 5; attempt += 1) await throttle.recordFailure(`user-${attempt}`, "10.0.0.9");
    await rejectionOf(throttle.assertAllowed("someone-new", "10.0.0.9"), RateLimitError);
    await throttle.assertAllowed("someone-new", "10.0.0.10");
  });
});

describe("createSignInThrottle on Redis", async () => {
  const redisPort = Number(process.env.TEST_REDIS_PORT ?? 6379);
  const first = await openRedis(`redis://127.0.0.1:${redisPort}`, logger);
  const second = await openRedis(`redis://127.0.0.1:${redisPort}`, logger);
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it("shares the failure counts between instances", async () => {
    const keyPrefix = `test-sign-in-${process.pid}-${Date.now()}`;
    const onFirst = createSignInThrottle({ ...limits, redis: first.client, keyPrefix, logger });
    const onSecond = createSignInThrottle({ ...limits, redis: second.client, keyPrefix, logger });
    await onFirst.recordFailure("root", "10.0.0.1");
    await onSecond.recordFailure("root", "10.0.0.2");
    await onFirst.assertAllowed("root", "10.0.0.3");
    await onSecond.recordFailure("root", "10.0.0.3");
    const refused = await rejectionOf(onFirst.assertAllowed("root", "10.0.0.4"), RateLimitError);
    expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    await onSecond.recordSuccess("root");
    await onFirst.assertAllowed("root", "10.0.0.4");
  });
});
