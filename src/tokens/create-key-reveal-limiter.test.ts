import crypto from "node:crypto";
import pino from "pino";
import { RateLimiterRes } from "rate-limiter-flexible";
import { afterAll, describe, expect, it } from "vitest";
import { openRedis } from "../cache/open-redis.js";
import { startTcpProxy } from "../../test/support/start-tcp-proxy.js";
import { createKeyRevealLimiter } from "./create-key-reveal-limiter.js";

// Connects to the machine's real Redis (DESIGN.md), through a proxy the test can cut.
const redisPort = Number(process.env.TEST_REDIS_PORT ?? 6379);

describe("createKeyRevealLimiter with Redis", async () => {
  const lines: Array<{ msg: string }> = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) });
  const proxy = await startTcpProxy(redisPort);
  const first = await openRedis(`redis://127.0.0.1:${proxy.port}`, logger);
  const second = await openRedis(`redis://127.0.0.1:${redisPort}`, logger);
  // A key no other run uses; removed afterwards.
  const userKey = `test-${crypto.randomBytes(6).toString("hex")}`;
  const keyRevealKeyPrefix = `test-${crypto.randomBytes(6).toString("hex")}:key-reveal`;
  const keyPrefix = keyRevealKeyPrefix;
  afterAll(async () => {
    await second.client.del(`${keyRevealKeyPrefix}:${userKey}`);
    await first.close();
    await second.close();
    await proxy.close();
  });

  it("shares one budget between two instances, then falls back to memory while Redis is away and says so once", async () => {
    const onFirst = createKeyRevealLimiter({ points: 3, durationSeconds: 60, redis: first.client, keyPrefix, logger });
    const onSecond = createKeyRevealLimiter({
      points: 3,
      durationSeconds: 60,
      redis: second.client,
      keyPrefix,
      logger,
    });
    await onFirst.consume(userKey);
    await onSecond.consume(userKey);
    await onFirst.consume(userKey);
    const refused = await onSecond.consume(userKey).catch((rejection: unknown) => rejection);
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect(await second.client.get(`${keyRevealKeyPrefix}:${userKey}`)).toBe("4");

    await proxy.refuse();
    // The in-memory fallback starts from zero for this instance: three more, then refused, and one warning.
    for (let reveal = 0; reveal < 3; reveal += 1) await onFirst.consume(userKey);
    await expect(onFirst.consume(userKey)).rejects.toBeInstanceOf(RateLimiterRes);
    expect(lines.filter((line) => line.msg.startsWith("Redis unreachable: the key reveal budget"))).toHaveLength(1);
  });

  it("counts in memory when there is no Redis", async () => {
    const limiter = createKeyRevealLimiter({ points: 1, durationSeconds: 60, keyPrefix: "unused", logger });
    await limiter.consume("1");
    await expect(limiter.consume("1")).rejects.toBeInstanceOf(RateLimiterRes);
  });
});
