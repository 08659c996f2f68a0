import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startFakeOpenaiServer,
  type FakeOpenaiUpstream,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { signCallbackBody } from "../../src/callbacks/sign-callback-body.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { parsePrometheusText } from "../support/parse-prometheus-text.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Channel health across two gateway instances sharing PostgreSQL and Redis, as two processes behind a load balancer.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const testDatabases = await openTestDatabases();
const sharedDatabase = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;

const goodKey = `sk-good-${crypto.randomBytes(12).toString("hex")}`;
const revokedKey = `sk-revoked-${crypto.randomBytes(12).toString("hex")}`;
const soloKey = `sk-solo-${crypto.randomBytes(12).toString("hex")}`;
const webhookSecret = `whsec_${crypto.randomBytes(16).toString("hex")}`;

interface WebhookCall {
  body: string;
  headers: http.IncomingHttpHeaders;
}

function startWebhookReceiver(): Promise<{ url: string; calls: WebhookCall[]; close(): Promise<void> }> {
  const calls: WebhookCall[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      calls.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  server.listen(0, "127.0.0.1");
  return new Promise((resolve) =>
    server.once("listening", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
        calls,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

const chat = (gateway: TestGateway, key: string, model: string) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }], max_tokens: 3 }),
  }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });

async function findChannelByName(gateway: TestGateway, name: string) {
  const listed = await gateway.client.management.GET("/api/channel/", { params: { query: { size: 100 } } });
  const channel = listed.data!.data.items.find((item) => item.name === name);
  if (!channel) throw new Error(`no channel ${name}`);
  return channel;
}

describe("channel health on two instances sharing PostgreSQL and Redis", () => {
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  let upstream: FakeOpenaiUpstream;
  let webhook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let secondPool: GatewayDatabase;
  let first: TestGateway;
  let second: TestGateway;
  const started: TestGateway[] = [];
  let configFile: Record<string, unknown>;

  async function startInstance(database: GatewayDatabase): Promise<TestGateway> {
    const instance = await startTestGateway({
      database,
      configFile,
      environment: { REDIS_URL: redisUrl, GATEWAY_ADMIN_TOKEN: adminToken },
    });
    started.push(instance);
    return { ...instance, adminToken, client: instance.clientFor({ accessToken: adminToken }) };
  }

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: goodKey });
    upstream.setAcceptedKeys([goodKey, soloKey]);
    webhook = await startWebhookReceiver();
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(sharedDatabase.db))
      .rows[0]!.schema;
    secondPool = await openDatabase(postgresUrl, { postgresSchema: schema });
    configFile = {
      channels: [
        { name: "multi", type: "openai", base_url: upstream.url, keys: [goodKey, revokedKey], models: ["model-m"] },
        { name: "solo", type: "openai", base_url: upstream.url, key: soloKey, models: ["model-s"] },
        { name: "busy", type: "openai", base_url: `${upstream.url}/busy`, key: goodKey, models: ["model-b"] },
      ],
      pricing: { "model-m": { input: 0, output: 0 }, "model-s": { input: 0, output: 0 }, "model-b": {} },
      relay: { max_attempts: 1, cooldown_after_failures: 1000 },
      channel_health: {
        disable_after_failures: 2,
        failure_window_seconds: 600,
        probe_interval_seconds: 3600,
        webhook_url: webhook.url,
        webhook_secret: webhookSecret,
      },
      fetch: { allow_private: ["127.0.0.1/32"] },
    };
    first = await startInstance(sharedDatabase);
    second = await startInstance(secondPool);
  });
  afterAll(async () => {
    for (const instance of started.splice(0)) await instance.close();
    await secondPool?.close();
    await upstream?.close();
    await webhook?.close();
  });

  it("takes a revoked key out on both instances, keeps the channel serving with its good key, and announces it", async () => {
    upstream.setAcceptedKeys([goodKey, soloKey]);
    const { key } = await createApiKey(first, { unlimitedQuota: true });
    // Round-robin over two keys: half of these meet the revoked one (answered 502: our credential, not the client's).
    const statuses = [];
    for (let index = 0; index < 4; index += 1) statuses.push(await chat(first, key, "model-m"));
    expect(statuses.filter((status) => status === 502)).toHaveLength(2);

    await expect
      .poll(async () => (await findChannelByName(second, "multi")).key_health, { timeout: 2_000, interval: 25 })
      .toEqual([
        { index: 0, state: "healthy" },
        {
          index: 1,
          state: "auto_disabled",
          reason: "unauthorized",
          upstream_status: 401,
          changed_time: expect.any(Number),
        },
      ]);
    expect((await findChannelByName(second, "multi")).health).toEqual({ state: "healthy" });
    for (const gateway of [first, second]) {
      const sent = [];
      for (let index = 0; index < 4; index += 1) sent.push(await chat(gateway, key, "model-m"));
      expect(sent).toEqual([200, 200, 200, 200]);
    }

    const transitions = parsePrometheusText(await first.gateway.context.metrics.registry.metrics()).samples.filter(
      (sample) => sample.name === "gateway_channel_health_transitions_total" && sample.labels.channel === "multi",
    );
    expect(transitions).toEqual([
      {
        name: "gateway_channel_health_transitions_total",
        labels: { channel: "multi", state: "auto_disabled" },
        value: 1,
      },
    ]);
    await expect.poll(() => webhook.calls.length, { timeout: 2_000 }).toBeGreaterThanOrEqual(1);
    const call = webhook.calls[0]!;
    const timestamp = Number(call.headers["x-signature-timestamp"]);
    expect(call.headers["x-signature"]).toBe(signCallbackBody(webhookSecret, timestamp, call.body));
    expect(JSON.parse(call.body)).toEqual({
      type: "channel.health",
      channel_id: expect.any(Number),
      channel_name: "multi",
      key_index: 1,
      from: "healthy",
      to: "auto_disabled",
      reason: "unauthorized",
      upstream_status: 401,
      time: expect.any(Number),
    });
    expect(call.body).not.toContain(revokedKey);
  });

  it("takes a one-key channel out (503 on the other instance), then a probe puts it back when the account accepts the key again", async () => {
    const { key } = await createApiKey(first, { unlimitedQuota: true });
    upstream.setAcceptedKeys([goodKey]);
    expect([await chat(first, key, "model-s"), await chat(first, key, "model-s")]).toEqual([502, 502]);
    await expect.poll(() => chat(second, key, "model-s"), { timeout: 2_000, interval: 25 }).toBe(503);
    const solo = await findChannelByName(second, "solo");
    expect(solo.health).toMatchObject({ state: "auto_disabled", reason: "unauthorized", upstream_status: 401 });

    // Still refused: the probe leaves it out.
    await second.gateway.context.channelHealth!.probeOnce();
    expect((await findChannelByName(first, "solo")).health?.state).toBe("auto_disabled");

    upstream.setAcceptedKeys([goodKey, soloKey, revokedKey]);
    await second.gateway.context.channelHealth!.probeOnce();
    await expect.poll(() => chat(first, key, "model-s"), { timeout: 2_000, interval: 25 }).toBe(200);
    expect((await findChannelByName(first, "solo")).health).toEqual({ state: "healthy" });
    // The revoked key of "multi" was accepted again too.
    expect((await findChannelByName(first, "multi")).key_health?.[1]).toEqual({ index: 1, state: "healthy" });
  });

  it("counts one key's failures on every instance together: one on each takes it out (the rules say two)", async () => {
    const { key } = await createApiKey(first, { unlimitedQuota: true });
    upstream.setAcceptedKeys([goodKey]);
    expect(await chat(first, key, "model-s")).toBe(502);
    // The first instance's failure is counted before the second's: each request answers before its count is stored.
    await expect
      .poll(
        async () =>
          Number(
            (
              await sql<{ count: string | number }>`
                select count(*) as count from channel_credential_failures`.execute(sharedDatabase.db)
            ).rows[0]!.count,
          ),
        { timeout: 2_000, interval: 25 },
      )
      .toBe(1);
    expect(await chat(second, key, "model-s")).toBe(502);
    await expect.poll(() => chat(first, key, "model-s"), { timeout: 2_000, interval: 25 }).toBe(503);
    expect((await findChannelByName(first, "solo")).health).toMatchObject({
      state: "auto_disabled",
      reason: "unauthorized",
      upstream_status: 401,
    });

    upstream.setAcceptedKeys([goodKey, soloKey, revokedKey]);
    await first.gateway.context.channelHealth!.probeOnce();
    await expect.poll(() => chat(second, key, "model-s"), { timeout: 2_000, interval: 25 }).toBe(200);
    const left = await sql<{ count: string | number }>`
      select count(*) as count from channel_credential_failures`.execute(sharedDatabase.db);
    expect(Number(left.rows[0]!.count)).toBe(0);
  });

  it("never disables for 429 or 5xx, however many", async () => {
    const { key } = await createApiKey(first, { unlimitedQuota: true });
    upstream.setFaults({ status: 429 });
    for (let index = 0; index < 6; index += 1) expect(await chat(first, key, "model-b")).toBe(429);
    upstream.setFaults({ status: 503 });
    for (let index = 0; index < 6; index += 1) expect(await chat(first, key, "model-b")).toBe(502);
    upstream.setFaults({});
    const busy = await findChannelByName(first, "busy");
    expect(busy.health?.state).not.toBe("auto_disabled");
    expect(busy.key_health).toEqual([{ index: 0, state: "healthy" }]);
    const rows = await sql<{ count: string | number }>`
      select count(*) as count from channel_health where channel_id = ${busy.id}`.execute(sharedDatabase.db);
    expect(Number(rows.rows[0]!.count)).toBe(0);
  });

  it("lets an administrator take a key out and put it back, followed by the other instance", async () => {
    const multi = await findChannelByName(first, "multi");
    const disabled = await first.client.management.POST("/api/channel/{id}/health", {
      params: { path: { id: multi.id } },
      body: { enabled: false, key_index: 0 },
    });
    expect(disabled.response.status).toBe(200);
    expect(disabled.data!.data.key_health?.[0]).toMatchObject({ state: "disabled" });
    await expect
      .poll(async () => (await findChannelByName(second, "multi")).key_health?.[0]?.state, { timeout: 2_000 })
      .toBe("disabled");
    // Probes leave an administrator's decision alone.
    await second.gateway.context.channelHealth!.probeOnce();
    expect((await findChannelByName(second, "multi")).key_health?.[0]?.state).toBe("disabled");

    const enabled = await second.client.management.POST("/api/channel/{id}/health", {
      params: { path: { id: multi.id } },
      body: { enabled: true, key_index: 0 },
    });
    expect(enabled.data!.data.key_health?.[0]).toEqual({ index: 0, state: "healthy" });
    const refused = await first.client.management.POST("/api/channel/{id}/health", {
      params: { path: { id: multi.id } },
      body: { enabled: false, key_index: 7 },
    });
    expect(refused.response.status).toBe(400);
  });

  it("tests every channel and keeps the outcomes on the channels across a restart", async () => {
    upstream.setAcceptedKeys([goodKey, revokedKey]);
    const tested = await first.client.management.POST("/api/channel/test", {});
    expect(tested.response.status).toBe(200);
    const items = tested.data!.data.items;
    const solo = await findChannelByName(first, "solo");
    const multi = await findChannelByName(first, "multi");
    expect(items.find((item) => item.channel_id === multi.id)).toMatchObject({ success: true, model: "model-m" });
    expect(items.find((item) => item.channel_id === solo.id)).toMatchObject({
      success: false,
      model: "model-s",
      message: expect.stringContaining("upstream answered 401"),
    });
    expect(JSON.stringify(tested.data)).not.toContain(soloKey);

    const restarted = await startInstance(sharedDatabase);
    const afterRestart = await findChannelByName(restarted, "solo");
    expect(afterRestart.last_test).toEqual({
      success: false,
      latency_ms: expect.any(Number),
      model: "model-s",
      message: expect.stringContaining("upstream answered 401"),
      tested_time: expect.any(Number),
    });
    upstream.setAcceptedKeys([goodKey, soloKey, revokedKey]);
  });

  it("lets an administrator change the rules on one instance, followed by the other and kept in the database", async () => {
    const rules = () => second.client.management.GET("/api/channel/health/rules", {});
    expect((await rules()).data!.data).toEqual({
      disable_after_failures: 2,
      failure_window_seconds: 600,
      probe_interval_seconds: 3600,
    });
    const changed = await first.client.management.PUT("/api/channel/health/rules", {
      body: { disable_after_failures: 0 },
    });
    expect(changed.data!.data).toEqual({
      disable_after_failures: 0,
      failure_window_seconds: 600,
      probe_interval_seconds: 3600,
    });
    await expect.poll(async () => (await rules()).data!.data.disable_after_failures, { timeout: 2_000 }).toBe(0);
    const empty = await first.client.management.PUT("/api/channel/health/rules", { body: {} });
    expect(empty.response.status).toBe(400);
    // Past the column's integer (a 500 from PostgreSQL before), and an interval no timer holds (Node.js fired it every
    // millisecond, probing without pause): refused in the envelope, the rules unchanged.
    for (const body of [
      { disable_after_failures: 4_294_967_296 },
      { failure_window_seconds: 4_294_967_296 },
      { probe_interval_seconds: 2_147_484 },
    ]) {
      const refused = await first.client.management.PUT("/api/channel/health/rules", { body });
      expect([refused.response.status, refused.error?.success]).toEqual([400, false]);
      expect(refused.error?.message).toContain(Object.keys(body)[0]);
    }
    expect((await rules()).data!.data).toEqual({
      disable_after_failures: 0,
      failure_window_seconds: 600,
      probe_interval_seconds: 3600,
    });

    // With 0 the second instance no longer takes a refused key out.
    const { key } = await createApiKey(first, { unlimitedQuota: true });
    upstream.setAcceptedKeys([goodKey]);
    for (let index = 0; index < 3; index += 1) expect(await chat(second, key, "model-s")).toBe(502);
    expect((await findChannelByName(second, "solo")).health).toEqual({ state: "healthy" });
    upstream.setAcceptedKeys([goodKey, soloKey, revokedKey]);
    const rows = await sql<{ count: string | number }>`select count(*) as count from channel_health_rules`.execute(
      sharedDatabase.db,
    );
    expect(Number(rows.rows[0]!.count)).toBe(1);
  });
});
