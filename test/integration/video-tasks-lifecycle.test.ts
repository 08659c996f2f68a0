import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeOpenaiUpstream,
  startFakeOpenaiServer,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openRedis, type OpenedRedis } from "../../src/cache/open-redis.js";
import { createLogger } from "../../src/logging/logger.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { updateTask } from "../../src/store/tasks/update-task.js";
import { createApiKey } from "../support/create-api-key.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { videoGatewayConfig, videoUnitsPerSecond } from "../support/video-gateway-config.js";

const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });
const fourSeconds = 4 * videoUnitsPerSecond;

const submit = async (gateway: TestGateway, key: string, prompt: string): Promise<string> => {
  const answer = await fetch(`${gateway.url}/v1/video/generations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "vid-a-2", prompt }),
  });
  const body = (await answer.json()) as { id: string };
  if (answer.status !== 200) throw new Error(`submit answered ${answer.status}: ${JSON.stringify(body)}`);
  return body.id;
};

/** Waits until nothing is held for the token any more, then returns its balance. */
const settledBalance = async (gateway: TestGateway, tokenId: number, start: number) => {
  await expect
    .poll(
      async () => {
        const token = await readToken(gateway, tokenId);
        return token.remain_quota + token.used_quota;
      },
      { timeout: 10_000, interval: 25 },
    )
    .toBe(start);
  const token = await readToken(gateway, tokenId);
  return { remain: token.remain_quota, used: token.used_quota };
};

const usageRowsFor = async (database: GatewayDatabase, tokenId: number) =>
  database.db.selectFrom("usage_logs").select(["request_id", "quota"]).where("token_id", "=", tokenId).execute();

describe.each(testDatabases)("video task lifecycle on $name", ({ database }) => {
  let upstream: FakeOpenaiUpstream;
  const open: TestGateway[] = [];
  const start = async (tasks: Record<string, number> = {}) => {
    const gateway = await startTestGateway({ database, configFile: videoGatewayConfig(upstream.url, tasks) });
    open.push(gateway);
    return gateway;
  };
  const stop = async (gateway: TestGateway) => {
    open.splice(open.indexOf(gateway), 1);
    await gateway.close();
  };

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
  });
  afterAll(async () => {
    for (const gateway of open.splice(0)) await gateway.close();
    await upstream.close();
  });

  it("resumes polling after a restart: tasks queued before it complete and settle once", async () => {
    upstream.reset();
    upstream.videos.setTimeline({ queuedPolls: 2, runningPolls: 1 });
    const before = await start();
    const { id: tokenId, key } = await createApiKey(before, { remainQuota: 10_000_000 });
    const taskIds = await Promise.all([1, 2, 3, 4, 5].map((index) => submit(before, key, `restart ${index}`)));
    await stop(before);

    const after = await start();
    expect(await settledBalance(after, tokenId, 10_000_000)).toEqual({
      remain: 10_000_000 - 5 * fourSeconds,
      used: 5 * fourSeconds,
    });
    const tasks = await database.db
      .selectFrom("tasks")
      .select(["status", "quota"])
      .where("id", "in", taskIds)
      .execute();
    expect(tasks.map((task) => [task.status, Number(task.quota)])).toEqual(
      taskIds.map(() => ["completed", fourSeconds]),
    );
    await after.gateway.context.billing.flush();
    const rows = await usageRowsFor(database, tokenId);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(5);
    await stop(after);
  });

  it("settles at start a task whose winner stopped between the terminal transition and the settlement", async () => {
    upstream.reset();
    upstream.videos.setTimeline({ queuedPolls: 1000, runningPolls: 0 });
    const before = await start();
    const { id: tokenId, key } = await createApiKey(before, { remainQuota: 1_000_000 });
    const taskId = await submit(before, key, "interrupted");
    await stop(before);
    // What a crash right after the compare-and-swap leaves: the task finished with its cost, the hold still open.
    await updateTask(
      database.db,
      taskId,
      { status: "completed", quota: fourSeconds, billedSeconds: 4, completedTime: 1, updatedTime: 1 },
      { onlyFromStatuses: ["queued", "in_progress"] },
    );
    const after = await start();
    expect(await settledBalance(after, tokenId, 1_000_000)).toEqual({
      remain: 1_000_000 - fourSeconds,
      used: fourSeconds,
    });
    await stop(after);
  });

  it("settles once after a restart a task that holds both its key's balance and its owner's wallet", async () => {
    upstream.reset();
    upstream.videos.setTimeline({ queuedPolls: 2, runningPolls: 1 });
    const before = await start();
    const owner = await createSignedInUser(before, { wallet: 1_000_000 });
    const token = await createTokenForTest(owner.client, { remain_quota: 1_000_000 });
    const key = await revealApiKey(owner.client, token.id);
    const taskId = await submit(before, key, "both balances");
    const held = (await owner.client.management.GET("/api/user/self")).data!.data;
    expect([held.quota, held.used_quota]).toEqual([1_000_000 - fourSeconds, 0]);
    await stop(before);

    const after = await start();
    const ownerAfter = after.clientFor({ accessToken: owner.accessToken });
    const walletOf = async () => {
      const self = (await ownerAfter.management.GET("/api/user/self")).data!.data;
      return { quota: self.quota, used: self.used_quota };
    };
    await expect
      .poll(walletOf, { timeout: 10_000, interval: 25 })
      .toEqual({ quota: 1_000_000 - fourSeconds, used: fourSeconds });
    const settled = (await ownerAfter.management.GET("/api/token/{id}", { params: { path: { id: token.id } } })).data!
      .data;
    expect([settled.remain_quota, settled.used_quota]).toEqual([1_000_000 - fourSeconds, fourSeconds]);
    const task = await database.db
      .selectFrom("tasks")
      .select(["status", "quota"])
      .where("id", "=", taskId)
      .executeTakeFirstOrThrow();
    expect([task.status, Number(task.quota)]).toEqual(["completed", fourSeconds]);
    // Once: later polls and a second settlement attempt change nothing.
    await after.gateway.context.billing.flush();
    expect(await walletOf()).toEqual({ quota: 1_000_000 - fourSeconds, used: fourSeconds });
    await stop(after);
  });

  it("fails a task that outlives tasks.timeout_minutes and refunds it", async () => {
    upstream.reset();
    upstream.videos.setTimeline({ queuedPolls: 100_000, runningPolls: 0 });
    const gateway = await start({ timeout_minutes: 0.005 });
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    const taskId = await submit(gateway, key, "never ends");
    expect(await settledBalance(gateway, tokenId, 1_000_000)).toEqual({ remain: 1_000_000, used: 0 });
    const answer = await fetch(`${gateway.url}/v1/video/generations/${taskId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await answer.json()).toMatchObject({
      data: { status: "failed", error: { code: "task_timeout" }, metadata: { output: { task_status: "UNKNOWN" } } },
    });
    await stop(gateway);
  });
});

// Two instances behind one PostgreSQL schema (each with its own pool) and the machine's Redis, as two processes.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const sharedDatabase = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

describe("two gateway instances polling video tasks on PostgreSQL", () => {
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  const pollIntervalMs = 100;
  let upstream: FakeOpenaiUpstream;
  let secondPool: GatewayDatabase;
  let redis: OpenedRedis;
  const started: TestGateway[] = [];

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    redis = await openRedis(redisUrl, createLogger({ level: "silent" }));
    // Redis keys carry user ids: start this run's ids at a random point so runs sharing the Redis never meet.
    await sql`select setval(pg_get_serial_sequence('users', 'id'), ${crypto.randomInt(1_000_000, 1_000_000_000)})`.execute(
      sharedDatabase.db,
    );
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

  it("settles each of 200 tasks exactly once, and no task is polled twice within one interval", async () => {
    const configFile = videoGatewayConfig(upstream.url, { poll_interval_ms: pollIntervalMs, max_concurrent_polls: 16 });
    const environment = { REDIS_URL: redisUrl, GATEWAY_ADMIN_TOKEN: adminToken };
    // Both instances share GATEWAY_ADMIN_TOKEN: each start re-seats root, so root's client uses that token.
    const startInstance = async (database: GatewayDatabase) => {
      const instance = await startTestGateway({ database, configFile, environment });
      started.push(instance);
      return { ...instance, adminToken, client: instance.clientFor({ accessToken: adminToken }) };
    };
    const first = await startInstance(sharedDatabase);
    const second = await startInstance(secondPool);
    upstream.videos.setTimeline({ queuedPolls: 1, runningPolls: 1 });
    const quota = 200 * fourSeconds;
    const { id: tokenId, key } = await createApiKey(
      { ...first, client: first.clientFor({ accessToken: adminToken }) },
      {
        remainQuota: quota,
      },
    );
    const taskIds: string[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      taskIds.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            submit(index % 2 === 0 ? first : second, key, `task ${batch}-${index}`),
          ),
        )),
      );
    }
    expect(new Set(taskIds).size).toBe(200);
    expect(await settledBalance(first, tokenId, quota)).toEqual({ remain: 0, used: quota });

    const tasks = await sharedDatabase.db
      .selectFrom("tasks")
      .select(["status", "quota"])
      .where("id", "in", taskIds)
      .execute();
    expect(tasks.filter((task) => task.status === "completed" && Number(task.quota) === fourSeconds)).toHaveLength(200);
    await first.gateway.context.billing.flush();
    await second.gateway.context.billing.flush();
    const rows = await usageRowsFor(sharedDatabase, tokenId);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(200);

    const videos = upstream.videos.list();
    expect(videos).toHaveLength(200);
    for (const video of videos) {
      // Three retrieves take a video to completed; each one at least an interval after the one before.
      expect(video.retrievals.length).toBeGreaterThanOrEqual(3);
      for (let index = 1; index < video.retrievals.length; index += 1)
        expect(video.retrievals[index]! - video.retrievals[index - 1]!).toBeGreaterThanOrEqual(pollIntervalMs - 1);
    }
  });
});
