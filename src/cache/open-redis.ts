import { Redis } from "ioredis";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Logger } from "../logging/logger.js";

export interface OpenedRedis {
  client: Redis;
  /** The URL without user name or password, for messages and logs. */
  address: string;
  /** Ends the connection (QUIT, or a hard disconnect when Redis is unreachable); safe to call twice. */
  close(): Promise<void>;
}

export interface OpenRedisOptions {
  /** How long the first connection (TCP, AUTH, ready check) may take before startup fails (default 5 s). */
  connectTimeoutMs?: number;
  /** Longest wait for one command once running (default 2 s): a hung Redis must not hang requests. */
  commandTimeoutMs?: number;
}

/**
 * Connects to REDIS_URL and waits until Redis answers, so a wrong URL stops the gateway at start with
 * "REDIS_URL: cannot connect to …" instead of failing requests later. Once running, a lost connection is retried
 * forever with backoff, while commands fail at once (no offline queue): callers fall back to in-process state
 * rather than queueing behind an outage. Outages are logged once each, not once per retry.
 */
export async function openRedis(url: string, logger: Logger, options: OpenRedisOptions = {}): Promise<OpenedRedis> {
  const address = describeRedisAddress(url);
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    commandTimeout: options.commandTimeoutMs ?? 2_000,
    // A command caught by a dropped connection fails after one reconnection attempt instead of twenty.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });

  try {
    await waitUntilReady(client);
  } catch (error) {
    client.disconnect();
    const reason = error instanceof Error && error.message ? ` (${error.message})` : "";
    throw new ConfigurationError(`REDIS_URL: cannot connect to ${address}${reason}`, { cause: error });
  }

  let outage = false;
  client.on("error", (error: Error) => {
    if (outage) return;
    outage = true;
    logger.error({ err: error, redis: address }, "Redis connection lost; retrying in the background");
  });
  client.on("ready", () => {
    if (!outage) return;
    outage = false;
    logger.info({ redis: address }, "Redis connection restored");
  });

  let closing: Promise<void> | undefined;
  return {
    client,
    address,
    close: () =>
      (closing ??= (async () => {
        if (client.status === "end") return;
        if (client.status === "reconnecting") {
          // Between two attempts there is no socket to close, so ioredis emits no "end": cancelling the next
          // attempt is all there is to do.
          client.disconnect();
          return;
        }
        const ended = new Promise((resolve) => client.once("end", resolve));
        try {
          await client.quit();
        } catch {
          // QUIT cannot be sent while disconnected (no offline queue); drop the connection attempts instead.
          client.disconnect();
        }
        await ended;
      })()),
  };
}

function waitUntilReady(client: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      client.off("ready", onReady);
      client.off("error", onError);
      client.off("end", onEnd);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    const onError = (error: Error) => settle(error);
    const onEnd = () => settle(new Error("connection closed"));
    client.once("ready", onReady);
    client.once("error", onError);
    client.once("end", onEnd);
  });
}

/** `redis://host:port/db` from REDIS_URL: the user name and password never reach a message or a log line. */
function describeRedisAddress(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError("REDIS_URL: not a valid URL (expected redis://[:password@]host[:port][/db])");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new ConfigurationError(`REDIS_URL: must start with redis:// or rediss:// (got "${parsed.protocol}")`);
  }
  const database = parsed.pathname && parsed.pathname !== "/" ? parsed.pathname : "";
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || "6379"}${database}`;
}
