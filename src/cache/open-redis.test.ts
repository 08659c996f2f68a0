import net from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/gateway-error.js";
import { openRedis, type OpenedRedis } from "./open-redis.js";
import { startTcpProxy, type TcpProxy } from "../../test/support/start-tcp-proxy.js";

// The real Redis of this machine (DESIGN.md): these tests connect for real.
const redisPort = Number(process.env.TEST_REDIS_PORT ?? 6379);

function captureLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino(
    { level: "debug" },
    { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  return { logger, lines };
}

async function findClosedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("openRedis", () => {
  const opened: OpenedRedis[] = [];
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((redis) => redis.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });

  it("connects to a running Redis, and close() can be called twice", async () => {
    const { logger } = captureLogger();
    const redis = await openRedis(`redis://127.0.0.1:${redisPort}`, logger);
    expect(redis.address).toBe(`redis://127.0.0.1:${redisPort}`);
    expect(await redis.client.ping()).toBe("PONG");
    await redis.close();
    await redis.close();
    expect(redis.client.status).toBe("end");
  });

  it("refuses to start on a closed port, naming the address but never the password", async () => {
    const port = await findClosedPort();
    const { logger } = captureLogger();
    const started = Date.now();
    const failure = await openRedis(`redis://gateway:s3cret-pass@127.0.0.1:${port}/2`, logger).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConfigurationError);
    expect((failure as Error).message).toMatch(
      new RegExp(`^REDIS_URL: cannot connect to redis://127\\.0\\.0\\.1:${port}/2 \\(.*ECONNREFUSED.*\\)$`),
    );
    expect((failure as Error).message).not.toContain("s3cret-pass");
    expect((failure as Error).message).not.toContain("gateway@");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses to start when the server accepts the connection but never answers", async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const failure = await openRedis(`redis://127.0.0.1:${port}`, captureLogger().logger, {
        connectTimeoutMs: 300,
      }).catch((error: unknown) => error);
      expect((failure as Error).message).toMatch(
        new RegExp(`^REDIS_URL: cannot connect to redis://127\\.0\\.0\\.1:${port}`),
      );
    } finally {
      silent.close();
    }
  });

  it("refuses a URL that is not a Redis URL, without echoing it", async () => {
    const { logger } = captureLogger();
    await expect(openRedis("not a url with s3cret", logger)).rejects.toThrow(/^REDIS_URL: not a valid URL/);
    await expect(openRedis("not a url with s3cret", logger)).rejects.not.toThrow(/s3cret/);
    await expect(openRedis("http://user:s3cret@127.0.0.1:6379", logger)).rejects.toThrow(
      'REDIS_URL: must start with redis:// or rediss:// (got "http:")',
    );
  });

  it("once running, fails commands at once while Redis is away, logs the outage once, and recovers", async () => {
    const proxy = await startTcpProxy(redisPort);
    proxies.push(proxy);
    const { logger, lines } = captureLogger();
    const redis = await openRedis(`redis://127.0.0.1:${proxy.port}`, logger);
    opened.push(redis);
    expect(await redis.client.ping()).toBe("PONG");

    await proxy.refuse();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await expect(redis.client.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(500);
    // several reconnection attempts fail meanwhile
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(lines.filter((line) => line.msg === "Redis connection lost; retrying in the background")).toHaveLength(1);

    await proxy.restore();
    await expect.poll(() => redis.client.status, { timeout: 6_000 }).toBe("ready");
    expect(await redis.client.ping()).toBe("PONG");
    expect(lines.some((line) => line.msg === "Redis connection restored")).toBe(true);
  });

  it("closes promptly while Redis is unreachable", async () => {
    const proxy = await startTcpProxy(redisPort);
    proxies.push(proxy);
    const redis = await openRedis(`redis://127.0.0.1:${proxy.port}`, captureLogger().logger);
    await proxy.refuse();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await redis.close();
    expect(Date.now() - started).toBeLessThan(500);
    // and it stays closed: no reconnection once the server is back
    await proxy.restore();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(redis.client.status).not.toBe("ready");
  });

  it("replaces a connection that went silent: a timed-out command makes it reconnect, and Redis answers again after", async () => {
    const proxy = await startTcpProxy(redisPort);
    const redis = await openRedis(`redis://127.0.0.1:${proxy.port}`, captureLogger().logger, {
      commandTimeoutMs: 200,
      connectTimeoutMs: 200,
    });
    opened.push(redis);
    try {
      expect(await redis.client.ping()).toBe("PONG");
      proxy.blackHole();
      await expect(redis.client.ping()).rejects.toThrow("Command timed out");
      proxy.restore();
      // The old connection stays silent for good: only a new one can answer.
      await expect
        .poll(() => redis.client.ping().catch(() => "no answer"), { timeout: 5_000, interval: 100 })
        .toBe("PONG");
    } finally {
      await proxy.close();
    }
  });
});
