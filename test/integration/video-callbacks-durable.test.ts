import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { signCallbackBody } from "../../src/callbacks/sign-callback-body.js";
import { listCallbackDeliveries } from "../../src/store/callback-deliveries/list-callback-deliveries.js";
import { findTaskById } from "../../src/store/tasks/find-task-by-id.js";
import { updateTask } from "../../src/store/tasks/update-task.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { nativeVideoGatewayConfig } from "../support/video-gateway-config.js";

const testDatabases = await openTestDatabases();
/** 0.1 USD per second = 50,000 units per second; a 4 s vid-b sample is 200,000. */
const fourSeconds = 200_000;

interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A callback receiver on 127.0.0.1 that answers 500 until `accept` is set, then 204. */
async function startReceiver() {
  const received: ReceivedCallback[] = [];
  const state = { accept: false };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(state.accept ? 204 : 500).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/video`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Callbacks outlive the process that started them: a stop mid-retries leaves the next try on the task row, and the
 * next gateway on the same database continues the count; a task settled by the start sweep (its winner stopped
 * before settling) is called back too, once.
 */
describe.each(testDatabases)("durable video callbacks on $name", ({ database }) => {
  let native: FakeNativeUpstream;
  let secret = "";
  const open: TestGateway[] = [];
  const start = async (backoffMs: number) => {
    const gateway = await startTestGateway({
      database,
      configFile: nativeVideoGatewayConfig(native.url, backoffMs),
    });
    open.push(gateway);
    // Root's signing secret signs the callbacks of root's keys; made once, kept across restarts.
    if (secret === "") {
      const created = await gateway.client.management.POST("/api/user/self/webhook-secret");
      secret = created.data!.data.secret;
    }
    return gateway;
  };
  const stop = async (gateway: TestGateway) => {
    open.splice(open.indexOf(gateway), 1);
    await gateway.close();
  };
  const submit = async (gateway: TestGateway, key: string, callbackUrl: string): Promise<string> => {
    const answer = await fetch(`${gateway.url}/v1/video/generations`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "vid-b-3.1-fast-generate-preview",
        prompt: "A lighthouse at dusk",
        durationSeconds: 4,
        metadata: { callback_url: callbackUrl },
      }),
    });
    const body = (await answer.json()) as { id: string };
    if (answer.status !== 200) throw new Error(`submit answered ${answer.status}: ${JSON.stringify(body)}`);
    return body.id;
  };
  const expectSigned = (received: ReceivedCallback[], taskId: string) => {
    for (const delivery of received) {
      const timestamp = Number(delivery.headers["x-signature-timestamp"]);
      expect(delivery.headers["x-signature"]).toBe(signCallbackBody(secret, timestamp, delivery.body));
      expect(JSON.parse(delivery.body)).toMatchObject({ code: "success", data: { id: taskId, status: "completed" } });
    }
  };

  beforeAll(async () => {
    native = await startFakeNativeServer({ apiKey: "native-secret" });
  });
  afterAll(async () => {
    for (const gateway of open.splice(0)) await gateway.close();
    await native.close();
  });

  it("continues a callback's retries after a restart: the next gateway delivers it with the try count carried on", async () => {
    native.reset();
    native.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const receiver = await startReceiver();
    try {
      // Waits of 300, 600, 1200 ms…: the gateway is stopped while one of them runs.
      const before = await start(300);
      const { key } = await createApiKey(before, { remainQuota: 10_000_000 });
      const taskId = await submit(before, key, receiver.url);
      // Stopped once two tries are sent and recorded, during the wait before the next: a stop that aborts a try under
      // way (its POST sent, its answer not yet read) leaves it unrecorded, to be sent again by the next process.
      await expect
        .poll(
          async () =>
            receiver.received.length >= 2 &&
            (await findTaskById(database.db, taskId))?.callbackAttempts === receiver.received.length,
          { timeout: 10_000, interval: 10 },
        )
        .toBe(true);
      await stop(before);
      const triedBefore = receiver.received.length;
      const stored = await findTaskById(database.db, taskId);
      expect(stored).toMatchObject({ status: "completed", callbackState: "pending", callbackAttempts: triedBefore });
      expect(triedBefore).toBeLessThan(6);

      receiver.state.accept = true;
      const after = await start(300);
      await expect
        .poll(async () => (await findTaskById(database.db, taskId))?.callbackState, { timeout: 10_000, interval: 20 })
        .toBe("delivered");
      // One more try than before the stop, and no try sent twice.
      expect(receiver.received).toHaveLength(triedBefore + 1);
      expectSigned(receiver.received, taskId);
      const deliveries = await listCallbackDeliveries(database.db, taskId);
      expect(deliveries.map(({ attempt, statusCode, succeeded }) => [attempt, statusCode, succeeded])).toEqual([
        ...Array.from({ length: triedBefore }, (_, index) => [index + 1, 500, false]),
        [triedBefore + 1, 204, true],
      ]);
      expect((await findTaskById(database.db, taskId))?.callbackAttempts).toBe(triedBefore + 1);
      // The task shows the tries of both processes.
      const answer = await fetch(`${after.url}/v1/video/generations/${taskId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const shown = (await answer.json()) as { data: { metadata: { callback: { deliveries: unknown[] } } } };
      expect(shown.data.metadata.callback.deliveries).toHaveLength(triedBefore + 1);
      await stop(after);
    } finally {
      await receiver.close();
    }
  });

  it("calls back, once, a task the start sweep settles because its winner stopped before settling", async () => {
    native.reset();
    native.videos.setTimeline({ queuedPolls: 100_000, runningPolls: 0 });
    const receiver = await startReceiver();
    receiver.state.accept = true;
    try {
      const before = await start(5);
      const { id: tokenId, key } = await createApiKey(before, { remainQuota: 1_000_000 });
      const taskId = await submit(before, key, receiver.url);
      await stop(before);
      // What a crash right after an older winner's compare-and-swap leaves: finished with its cost, the hold open,
      // the callback not started (no callback state).
      await updateTask(
        database.db,
        taskId,
        { status: "completed", quota: fourSeconds, billedSeconds: 4, completedTime: 1, updatedTime: 1 },
        { onlyFromStatuses: ["queued", "in_progress"] },
      );
      expect((await findTaskById(database.db, taskId))?.callbackState).toBeNull();

      const after = await start(5);
      await expect
        .poll(async () => (await findTaskById(database.db, taskId))?.callbackState, { timeout: 10_000, interval: 20 })
        .toBe("delivered");
      expect(receiver.received).toHaveLength(1);
      expectSigned(receiver.received, taskId);
      const token = await readToken(after, tokenId);
      expect([token.remain_quota, token.used_quota]).toEqual([1_000_000 - fourSeconds, fourSeconds]);

      // A second start neither settles nor calls back again: the hold is settled and the callback delivered.
      await stop(after);
      const again = await start(5);
      expect(receiver.received).toHaveLength(1);
      expect(await listCallbackDeliveries(database.db, taskId)).toHaveLength(1);
      await stop(again);
    } finally {
      await receiver.close();
    }
  });
});

// Two instances on one PostgreSQL schema (each with its own pool), both polling and sweeping callbacks.
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const sharedDatabase = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

describe("two gateway instances sending video callbacks on PostgreSQL", () => {
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  let native: FakeNativeUpstream;
  let secondPool: GatewayDatabase;
  const started: TestGateway[] = [];

  beforeAll(async () => {
    native = await startFakeNativeServer({ apiKey: "native-secret" });
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(sharedDatabase.db))
      .rows[0]!.schema;
    secondPool = await openDatabase(postgresUrl, { postgresSchema: schema });
  });
  afterAll(async () => {
    for (const instance of started.splice(0)) await instance.close();
    await secondPool?.close();
    await native?.close();
  });

  it("sends each try of each task's callback once, whichever instance finished the task or retries it", async () => {
    // Per task: two refusals, then 204.
    const triesByTask = new Map<string, number>();
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const id = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { id: string } }).data.id;
        const tries = (triesByTask.get(id) ?? 0) + 1;
        triesByTask.set(id, tries);
        response.writeHead(tries <= 2 ? 500 : 204).end();
      });
    });
    server.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/video`;
    try {
      const configFile = nativeVideoGatewayConfig(native.url, 20);
      const startInstance = async (database: GatewayDatabase) => {
        const instance = await startTestGateway({
          database,
          configFile,
          environment: { GATEWAY_ADMIN_TOKEN: adminToken },
        });
        started.push(instance);
        return { ...instance, adminToken, client: instance.clientFor({ accessToken: adminToken }) };
      };
      const first = await startInstance(sharedDatabase);
      const second = await startInstance(secondPool);
      await first.client.management.POST("/api/user/self/webhook-secret");
      native.videos.setTimeline({ queuedPolls: 1, runningPolls: 1 });
      const { key } = await createApiKey(first, { remainQuota: 100_000_000 });
      const submitTo = async (instance: TestGateway, index: number) => {
        const answer = await fetch(`${instance.url}/v1/video/generations`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: "vid-b-3.1-fast-generate-preview",
            prompt: `task ${index}`,
            metadata: { callback_url: receiverUrl },
          }),
        });
        expect(answer.status).toBe(200);
        return ((await answer.json()) as { id: string }).id;
      };
      const taskIds = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submitTo(index % 2 === 0 ? first : second, index)),
      );
      await expect
        .poll(
          async () =>
            (
              await sharedDatabase.db
                .selectFrom("tasks")
                .select("id")
                .where("id", "in", taskIds)
                .where("callback_state", "=", "delivered")
                .execute()
            ).length,
          { timeout: 20_000, interval: 50 },
        )
        .toBe(20);
      expect(taskIds.map((id) => triesByTask.get(id))).toEqual(taskIds.map(() => 3));
      for (const id of taskIds)
        expect((await listCallbackDeliveries(sharedDatabase.db, id)).map((row) => row.attempt)).toEqual([1, 2, 3]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
