import { type Command, Redis } from "ioredis";
import { ConfigurationError } from "../errors/gateway-error.js";
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
  /**
   * Longest wait for one command once running (default 1 s): a command unanswered by then fails, and the connection
   * is replaced, since a silently lost one would never answer again.
   */
  commandTimeoutMs?: number;
  /** TCP keep-alive: the first probe after this much silence on the connection (default 10 s). */
  keepAliveInitialDelayMs?: number;
}

/**
 * ioredis fails a command after `commandTimeout` but keeps its connection, so after a silent network loss (a black
 * hole, a lost NAT entry) every later command waits out the same timeout on a socket that will never answer, until
 * the operating system gives up on it many minutes later. A timed-out command here makes the client drop that
 * connection and reconnect.
 */
class ReconnectingRedis extends Redis {
  private readonly watched = new WeakSet<Command>();

  override sendCommand(command: Command, stream?: Parameters<Redis["sendCommand"]>[1]): unknown {
    // A command caught by a reconnection is sent again; its timeout belongs to the connection it was first sent on.
    if (!this.watched.has(command)) {
      this.watched.add(command);
      const connection = this.stream;
      command.promise.catch((error: unknown) => {
        const timedOut = error instanceof Error && error.message === "Command timed out";
        if (timedOut && this.stream === connection && this.status === "ready") this.disconnect(true);
      });
    }
    return super.sendCommand(command, stream);
  }
}

/**
 * Connects to REDIS_URL and waits until Redis answers, so a wrong URL stops the gateway at start with
 * "REDIS_URL: cannot connect to …" instead of failing requests later. Once running, a lost connection is retried
 * forever with backoff, while commands fail at once (no offline queue): callers fall back to in-process state
 * rather than queueing behind an outage. Outages are logged once each, not once per retry.
 */
export async function openRedis(url: string, logger: Logger, options: OpenRedisOptions = {}): Promise<OpenedRedis> {
  const address = describeRedisAddress(url);
  const client = new ReconnectingRedis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    keepAlive: options.keepAliveInitialDelayMs ?? 10_000,
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
