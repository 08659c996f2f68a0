import crypto from "node:crypto";
import type { Redis } from "ioredis";
import { openRedis, type OpenedRedis, type OpenRedisOptions } from "./open-redis.js";
import type { Logger } from "../logging/logger.js";

/**
 * Tells the other gateway instances that something every instance keeps in memory (channels, prices and groups)
 * changed in the store, so they re-read it.
 */
export interface ChangeBus {
  /** After a change was stored here (this instance already reloaded its own copy). */
  publish(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeBusOptions {
  /** What changes, for log lines ("channels", "prices and groups"). */
  subject: string;
  /**
   * Without Redis there is one instance and nothing to tell. `topic` is the pub/sub channel, under REDIS_KEY_PREFIX
   * (`<prefix>:channels-changed`) so gateways sharing a Redis under different prefixes do not hear each other.
   */
  redis?: { url: string; publisher: Redis; topic: string; options?: OpenRedisOptions };
  logger: Logger;
  /** Re-reads what changed; called when another instance announces a change, and after a Redis outage. */
  reload(): Promise<void>;
}

/**
 * Redis pub/sub on one topic per subject. A publish that fails (Redis down) is logged, not thrown: the change is
 * already stored and served here. Messages sent during an outage are lost, so every subscriber reloads when its
 * connection comes back; that, not delivery, is what keeps instances from serving stale data for long.
 */
export async function createChangeBus(options: ChangeBusOptions): Promise<ChangeBus> {
  const { redis, logger, subject } = options;
  if (!redis) return { publish: async () => {}, close: async () => {} };

  const instanceId = crypto.randomUUID();
  const reload = () =>
    options
      .reload()
      .catch((error: unknown) =>
        logger.error({ err: error }, `cannot reload ${subject} after a change on another instance`),
      );

  // A connection in subscriber mode can run no other command, hence a second one.
  const subscriber: OpenedRedis = await openRedis(redis.url, logger, redis.options);
  const { topic } = redis;
  try {
    await subscriber.client.subscribe(topic);
  } catch (error) {
    await subscriber.close();
    throw error;
  }
  subscriber.client.on("message", (received: string, message: string) => {
    if (received !== topic) return;
    if (readOrigin(message) === instanceId) return;
    void reload();
  });
  // Only reconnections reach this (the first "ready" came before): ioredis resubscribes by itself, but what was
  // published meanwhile is gone.
  subscriber.client.on("ready", () => void reload());

  return {
    async publish() {
      try {
        await redis.publisher.publish(topic, JSON.stringify({ origin: instanceId }));
      } catch (error) {
        logger.error(
          { err: error },
          `cannot announce a change of ${subject} to other instances; they pick it up when Redis is back`,
        );
      }
    },
    close: () => subscriber.close(),
  };
}

function readOrigin(message: string): string | undefined {
  try {
    const parsed = JSON.parse(message) as { origin?: unknown };
    return typeof parsed.origin === "string" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
