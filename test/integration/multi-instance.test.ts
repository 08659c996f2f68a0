import { spawn } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openRedis, type OpenedRedis } from "../../src/cache/open-redis.js";
import { createLogger } from "../../src/logging/logger.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type StartTestGatewayOptions, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

// The multi-instance mode for real (DESIGN.md): two gateways in this process, each with its own PostgreSQL pool on
// one schema and its own Redis connections to the machine's Redis, as two processes behind a load balancer would be.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
// Both instances run with the default REDIS_KEY_PREFIX.
const keyRevealKeyPrefix = "gateway:key-reveal";
const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });
const sharedDatabase = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

const chatBody = (model: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model, messages: [{ role: "user", content: "hello world" }], ...extra });
const postChat = (gateway: TestGateway, key: string, body: string) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
  }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });

describe("two gateway instances sharing PostgreSQL and Redis", () => {
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  let upstream: FakeUpstream;
  let secondPool: GatewayDatabase;
  let redis: OpenedRedis;
  const started: TestGateway[] = [];

  /** Both instances get the same GATEWAY_ADMIN_TOKEN (and GATEWAY_SECRET): each start re-seats the root token. */
  async function startInstance(
    database: GatewayDatabase,
    configFile: StartTestGatewayOptions["configFile"],
    environment: Record<string, string> = {},
  ): Promise<TestGateway> {
    const instance = await startTestGateway({
      database,
      configFile,
      environment: { REDIS_URL: redisUrl, GATEWAY_ADMIN_TOKEN: adminToken, ...environment },
    });
    started.push(instance);
    return { ...instance, adminToken, client: instance.clientFor({ accessToken: adminToken }) };
  }

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    redis = await openRedis(redisUrl, createLogger({ level: "silent" }));
    // Rate limit keys are user ids: start this run's ids at a random point so runs sharing the Redis never meet.
    const firstUserId = crypto.randomInt(1_000_000, 1_000_000_000);
    await sql`select setval(pg_get_serial_sequence('users', 'id'), ${firstUserId})`.execute(sharedDatabase.db);
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(sharedDatabase.db))
      .rows[0]!.schema;
    secondPool = await openDatabase(postgresUrl, { postgresSchema: schema, postgresPoolSize: 20 });
  });
  afterAll(async () => {
    for (const instance of started.splice(0)) await instance.close();
    await secondPool?.close();
    await upstream?.close();
    await redis?.close();
  });

  describe("requests, quota and channels", () => {
    let first: TestGateway;
    let second: TestGateway;

    beforeAll(async () => {
      const configFile = {
        channels: [
          {
            name: "exact",
            type: "openai",
            base_url: upstream.url,
            key: "k1",
            models: ["model-x", "model-priced-later"],
          },
        ],
        pricing: {
          "model-x": { input: 0, output: 4 },
          "model-new": { input: 0, output: 4 },
          "model-renamed": { input: 0, output: 4 },
        },
      };
      first = await startInstance(sharedDatabase, configFile);
      second = await startInstance(secondPool, configFile);
    });

    it("lets exactly 50 of 100 concurrent requests spread over both instances through when the quota covers 50 worst cases", async () => {
      upstream.reset();
      // worst case = 3 output tokens × 4 USD/1M = 6 units = the actual cost of "Echo: hello world" (3 tokens)
      const { id, key } = await createApiKey(first, { remainQuota: 300 });
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          postChat(index % 2 === 0 ? first : second, key, chatBody("model-x", { max_tokens: 3 })),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(50);
      expect(statuses.filter((status) => status !== 200).every((status) => status === 402)).toBe(true);
      expect(upstream.requests).toHaveLength(50);
      for (const instance of [first, second]) {
        const token = await readToken(instance, id);
        expect([token.remain_quota, token.used_quota, token.status]).toEqual([0, 300, 4]);
      }
    });

    it("serves a channel created through one instance's admin API on the other within a second, and stops after its deletion", async () => {
      const { key } = await createApiKey(first, { unlimitedQuota: true });
      const servedBySecondWithin = async (model: string, expectedStatus: number): Promise<number> => {
        const start = Date.now();
        await expect
          .poll(() => postChat(second, key, chatBody(model)), { timeout: 1_000, interval: 20 })
          .toBe(expectedStatus);
        return Date.now() - start;
      };
      expect(await postChat(second, key, chatBody("model-new"))).toBe(404);

      const created = await first.client.management.POST("/api/channel/", {
        body: {
          name: `api-${crypto.randomBytes(4).toString("hex")}`,
          type: "openai",
          base_url: upstream.url,
          key: "k2",
          models: ["model-new"],
        },
      });
      expect(created.response.status).toBe(200);
      expect(await servedBySecondWithin("model-new", 200)).toBeLessThan(1_000);

      const updated = await first.client.management.PUT("/api/channel/", {
        body: { id: created.data!.data.id, models: ["model-renamed"] },
      });
      expect(updated.response.status).toBe(200);
      await servedBySecondWithin("model-renamed", 200);
      expect(await postChat(second, key, chatBody("model-new"))).toBe(404);

      const removed = await first.client.management.DELETE("/api/channel/{id}", {
        params: { path: { id: created.data!.data.id } },
      });
      expect(removed.response.status).toBe(200);
      await servedBySecondWithin("model-renamed", 404);
    });
    it("bills with a price set through one instance's admin API on the other within a second, and refuses the model there after its deletion", async () => {
      const { id, key } = await createApiKey(first, { unlimitedQuota: true });
      const setPrice = async (output: number) => {
        const answer = await first.client.management.PUT("/api/pricing/{model}", {
          params: { path: { model: "model-priced-later" } },
          body: { input: 0, output },
        });
        expect(answer.response.status).toBe(200);
      };
      // 3 output tokens at `output` USD per 1M: 4 → 6 units, 8 → 12 units.
      const chargedOnSecond = async (): Promise<number | string> => {
        const before = (await readToken(second, id)).used_quota;
        const status = await postChat(second, key, chatBody("model-priced-later", { max_tokens: 3 }));
        return status === 200 ? (await readToken(second, id)).used_quota - before : `status ${status}`;
      };
      expect(await chargedOnSecond()).toBe("status 403");

      await setPrice(4);
      await expect.poll(chargedOnSecond, { timeout: 1_000, interval: 20 }).toBe(6);
      await setPrice(8);
      await expect.poll(chargedOnSecond, { timeout: 1_000, interval: 20 }).toBe(12);

      const removed = await first.client.management.DELETE("/api/pricing/{model}", {
        params: { path: { model: "model-priced-later" } },
      });
      expect(removed.response.status).toBe(200);
      await expect.poll(chargedOnSecond, { timeout: 1_000, interval: 20 }).toBe("status 403");
    });
  });

  describe("users changed through one instance", () => {
    let first: TestGateway;
    let second: TestGateway;

    beforeAll(async () => {
      const configFile = {
        channels: [{ name: "exact", type: "openai", base_url: upstream.url, key: "k1", models: ["model-x"] }],
        pricing: { "model-x": { input: 0, output: 4 } },
      };
      // Keys stay cached for ten minutes: only the notice on Redis can make the other instance drop them sooner.
      const longCache = { TOKEN_CACHE_TTL_MS: "600000" };
      first = await startInstance(sharedDatabase, configFile, longCache);
      second = await startInstance(secondPool, configFile, longCache);
    });

    it("refuses a disabled or deleted user's key on the other instance within a second, though it cached the key", async () => {
      const alice = await createSignedInUser(first);
      const token = await createTokenForTest(alice.client, { unlimited_quota: true });
      const key = await revealApiKey(alice.client, token.id);
      const statusOnSecond = () => postChat(second, key, chatBody("model-x"));
      expect(await statusOnSecond()).toBe(200);

      const setStatus = async (status: 1 | 2) => {
        const answer = await first.client.management.PUT("/api/user/{id}", {
          params: { path: { id: alice.user.id } },
          body: { status },
        });
        expect(answer.response.status).toBe(200);
      };
      await setStatus(2);
      await expect.poll(statusOnSecond, { timeout: 1_000, interval: 20 }).toBe(403);
      await setStatus(1);
      await expect.poll(statusOnSecond, { timeout: 1_000, interval: 20 }).toBe(200);

      const deleted = await first.client.management.DELETE("/api/user/{id}", {
        params: { path: { id: alice.user.id } },
      });
      expect(deleted.response.status).toBe(200);
      await expect.poll(statusOnSecond, { timeout: 1_000, interval: 20 }).toBe(403);
    });
  });

  it("shares one key reveal budget: with 3 points, 2 reveals on one instance and 2 on the other make the 4th a 429", async () => {
    const budget = { key_reveal_rate_limit: { points: 3, duration_seconds: 60 } };
    const first = await startInstance(sharedDatabase, budget);
    const second = await startInstance(secondPool, budget);
    const username = `reveal-${crypto.randomBytes(4).toString("hex")}`;
    const password = "correct horse battery";
    expect((await first.client.management.POST("/api/user/", { body: { username, password } })).response.status).toBe(
      200,
    );
    const login = await first.clientFor({}).management.POST("/api/user/login", { body: { username, password } });
    const accessToken = login.data!.data.access_token;
    const userId = login.data!.data.id;
    await redis.client.del(`${keyRevealKeyPrefix}:${userId}`);
    try {
      const onFirst = first.clientFor({ accessToken }).management;
      const onSecond = second.clientFor({ accessToken }).management;
      expect((await onFirst.POST("/api/token/", { body: { name: "revealed", remain_quota: 0 } })).response.status).toBe(
        200,
      );
      const tokenId = (await onFirst.GET("/api/token/search", { params: { query: { keyword: "revealed" } } })).data!
        .data.items[0]!.id;
      const reveal = (client: typeof onFirst) =>
        client
          .POST("/api/token/{id}/key", { params: { path: { id: tokenId } } })
          .then(({ response }) => response.status);

      expect([await reveal(onFirst), await reveal(onFirst), await reveal(onSecond)]).toEqual([200, 200, 200]);
      expect(await reveal(onSecond)).toBe(429);
      expect(await reveal(onFirst)).toBe(429);
    } finally {
      await redis.client.del(`${keyRevealKeyPrefix}:${userId}`);
    }
  });

  describe("with REDIS_URL pointing at a closed port", () => {
    let closedPort: number;
    beforeAll(async () => {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      closedPort = (server.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("refuses to start, naming the address but not the password", async () => {
      const failure = await startTestGateway({
        database: sharedDatabase,
        environment: { REDIS_URL: `redis://:s3cret-redis@127.0.0.1:${closedPort}` },
      }).catch((error: unknown) => error as Error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(
        new RegExp(`^REDIS_URL: cannot connect to redis://127\\.0\\.0\\.1:${closedPort} \\(.*ECONNREFUSED`),
      );
      expect((failure as Error).message).not.toContain("s3cret-redis");
    });

    it("makes the gateway process exit with status 1 and the message on standard error", async () => {
      const root = path.resolve(import.meta.dirname, "../..");
      const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/main.ts")], {
        cwd: root,
        env: {
          ...process.env,
          PORT: "0",
          DATABASE_URL: "sqlite::memory:",
          GATEWAY_SECRET: "test-secret-0123456789abcdef",
          REDIS_URL: `redis://:s3cret-redis@127.0.0.1:${closedPort}`,
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let standardError = "";
      child.stderr.on("data", (chunk: Buffer) => (standardError += chunk.toString()));
      const exitCode = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(exitCode).toBe(1);
      expect(standardError).toContain(
        `Cannot start the gateway: REDIS_URL: cannot connect to redis://127.0.0.1:${closedPort} (`,
      );
      expect(standardError).not.toContain("s3cret-redis");
    });
  });
});
