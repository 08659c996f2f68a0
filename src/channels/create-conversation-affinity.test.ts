import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { openRedis, type OpenedRedis } from "../cache/open-redis.js";
import { createLogger } from "../logging/logger.js";
import { startTcpProxy } from "../../test/support/start-tcp-proxy.js";
import { createConversationAffinity, type ConversationAffinityOptions } from "./create-conversation-affinity.js";

// The real Redis of this machine (DESIGN.md).
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const logger = createLogger({ level: "silent" });
const scope = { tokenId: 7, model: "model-a", conversationKey: "session-1" };

describe("createConversationAffinity", () => {
  const opened: OpenedRedis[] = [];
  afterAll(async () => Promise.all(opened.map((redis) => redis.close())));
  const connect = async (url = redisUrl) => {
    const redis = await openRedis(url, logger);
    opened.push(redis);
    return redis;
  };

  function inMemory(overrides: Partial<ConversationAffinityOptions> & { clock: { ms: number } }) {
    return createConversationAffinity({
      ttlMs: 300_000,
      now: () => overrides.clock.ms,
      keyPrefix: "test:affinity",
      redisBudgetMs: 50,
      logger,
      ...overrides,
    });
  }

  it("remembers a conversation's channel and key until the TTL has passed since its last request", async () => {
    const clock = { ms: 1_000_000 };
    const affinity = inMemory({ clock });
    expect(await affinity.find(scope)).toBeUndefined();
    await affinity.remember(scope, { channelId: 3, keyIndex: 1 });
    clock.ms += 299_000;
    expect(await affinity.find(scope)).toEqual({ channelId: 3, keyIndex: 1 });
    // Another request renews it; a failover moves it.
    await affinity.remember(scope, { channelId: 4, keyIndex: 0 });
    clock.ms += 299_000;
    expect(await affinity.find(scope)).toEqual({ channelId: 4, keyIndex: 0 });
    clock.ms += 1_000;
    expect(await affinity.find(scope)).toBeUndefined();
  });

  it("keeps one user's conversation key from steering another's, or another model's", async () => {
    const affinity = inMemory({ clock: { ms: 0 } });
    await affinity.remember(scope, { channelId: 3, keyIndex: 1 });
    expect(await affinity.find({ ...scope, tokenId: 8 })).toBeUndefined();
    expect(await affinity.find({ ...scope, model: "model-b" })).toBeUndefined();
    expect(await affinity.find({ ...scope, conversationKey: "session-2" })).toBeUndefined();
  });

  it("keeps at most its bound of entries in memory, forgetting the least recently used", async () => {
    const affinity = inMemory({ clock: { ms: 0 }, maximumLocalEntries: 2 });
    const conversation = (key: string) => ({ ...scope, conversationKey: key });
    await affinity.remember(conversation("a"), { channelId: 1, keyIndex: 0 });
    await affinity.remember(conversation("b"), { channelId: 2, keyIndex: 0 });
    await affinity.remember(conversation("a"), { channelId: 1, keyIndex: 0 });
    await affinity.remember(conversation("c"), { channelId: 3, keyIndex: 0 });
    expect(await affinity.find(conversation("a"))).toEqual({ channelId: 1, keyIndex: 0 });
    expect(await affinity.find(conversation("b"))).toBeUndefined();
    expect(await affinity.find(conversation("c"))).toEqual({ channelId: 3, keyIndex: 0 });
  });

  it("turns off with a TTL of 0", async () => {
    const affinity = inMemory({ clock: { ms: 0 }, ttlMs: 0 });
    await affinity.remember(scope, { channelId: 1, keyIndex: 0 });
    expect(await affinity.find(scope)).toBeUndefined();
  });

  it("is shared by two instances through Redis, under the prefix, expiring by the gateway clock", async () => {
    const keyPrefix = `test-${crypto.randomBytes(6).toString("hex")}:affinity`;
    const clock = { ms: 5_000_000 };
    const [firstRedis, secondRedis] = [await connect(), await connect()];
    const first = inMemory({ clock, keyPrefix, redis: firstRedis.client });
    const second = inMemory({ clock, keyPrefix, redis: secondRedis.client });
    await first.remember(scope, { channelId: 5, keyIndex: 2 });
    expect(await second.find(scope)).toEqual({ channelId: 5, keyIndex: 2 });
    // The second instance fails the conversation over; the first follows.
    await second.remember(scope, { channelId: 6, keyIndex: 0 });
    expect(await first.find(scope)).toEqual({ channelId: 6, keyIndex: 0 });
    const keys = await firstRedis.client.keys(`${keyPrefix}:*`);
    expect(keys).toHaveLength(1);
    // The client's conversation key is not written anywhere in clear.
    expect(keys[0]).not.toContain("session-1");
    const ttlMs = await firstRedis.client.pttl(keys[0]!);
    expect(ttlMs).toBeGreaterThan(0);
    expect(ttlMs).toBeLessThanOrEqual(300_000);
    clock.ms += 300_000;
    expect(await first.find(scope)).toBeUndefined();
    await firstRedis.client.del(keys[0]!);
  });

  it("answers from this instance's memory when Redis does not answer within the wait budget", async () => {
    const redisPort = Number(new URL(redisUrl).port || 6379);
    const proxy = await startTcpProxy(redisPort);
    try {
      const redis = await openRedis(`redis://127.0.0.1:${proxy.port}`, logger, { commandTimeoutMs: 5_000 });
      opened.push(redis);
      const keyPrefix = `test-${crypto.randomBytes(6).toString("hex")}:affinity`;
      const affinity = inMemory({ clock: { ms: 0 }, keyPrefix, redis: redis.client, redisBudgetMs: 50 });
      proxy.blackHole();
      // Neither call waits for Redis's answer (the command timeout is 5 s): both come back on the budget.
      await affinity.remember(scope, { channelId: 9, keyIndex: 1 });
      expect(await affinity.find(scope)).toEqual({ channelId: 9, keyIndex: 1 });
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });
});
