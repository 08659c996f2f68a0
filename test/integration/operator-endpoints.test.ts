import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { DEFAULT_TEST_DATABASE_URL } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { parsePrometheusText, type PrometheusSample } from "../support/parse-prometheus-text.js";
import { startTcpProxy, type TcpProxy } from "../support/start-tcp-proxy.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// The operator's view (issue 16): /healthz, /readyz, /metrics and X-Request-Id.
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
const postgresUrl = new URL(process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL);

const channelConfig = (upstream: FakeUpstream) => ({
  channels: [{ name: "main", type: "openai", base_url: upstream.url, key: "upstream-secret", models: ["model-a"] }],
  pricing: { "model-a": { input: 2, output: 4 } },
  relay: { max_attempts: 1 },
});

const chat = (gateway: TestGateway, key: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "model-a", messages: [{ role: "user", content: "hello world" }], max_tokens: 5 }),
  });

describe("metrics, health and request ids on one gateway (SQLite)", () => {
  const metricsToken = `metrics-${crypto.randomBytes(8).toString("hex")}`;
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    const database = await openDatabase("sqlite::memory:");
    gateway = await startTestGateway({
      database,
      configFile: channelConfig(upstream),
      environment: { METRICS_TOKEN: metricsToken },
    });
    apiKey = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
    const close = gateway.close;
    gateway.close = async () => {
      await close();
      await database.close();
    };
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  async function scrape(): Promise<PrometheusSample[]> {
    const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const exposition = parsePrometheusText(await response.text());
    expect(exposition.types.get("gateway_requests_total")).toBe("counter");
    expect(exposition.types.get("gateway_request_duration_seconds")).toBe("histogram");
    return exposition.samples;
  }
  const sumOf = (samples: PrometheusSample[], name: string, labels: Record<string, string> = {}) =>
    samples
      .filter(
        (sample) =>
          sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      )
      .reduce((sum, sample) => sum + sample.value, 0);

  it("answers /healthz and /readyz without a key, with an X-Request-Id", async () => {
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect(health.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok" } });
  });

  it("keeps /metrics behind METRICS_TOKEN", async () => {
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${gateway.url}/metrics`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  it("serves Prometheus text whose counters move as requests pass, with no key or user name in any label", async () => {
    const before = await scrape();
    const chatLabels = {
      generation: "openai",
      operation: "createChatCompletion",
      model: "model-a",
      status_class: "2xx",
    };
    for (let index = 0; index < 2; index += 1) expect((await chat(gateway, apiKey)).status).toBe(200);
    expect((await chat(gateway, "sk-not-a-key")).status).toBe(401);
    upstream.setFaults({ status: 500, times: 1 });
    expect((await chat(gateway, apiKey)).status).toBe(502);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      sumOf(after, name, labels) - sumOf(before, name, labels);
    expect(moved("gateway_requests_total", chatLabels)).toBe(2);
    expect(
      moved("gateway_requests_total", { operation: "createChatCompletion", model: "none", status_class: "4xx" }),
    ).toBe(1);
    expect(moved("gateway_requests_total", { model: "model-a", status_class: "5xx" })).toBe(1);
    expect(moved("gateway_request_duration_seconds_count", { operation: "createChatCompletion" })).toBe(4);
    expect(moved("gateway_upstream_duration_seconds_count", { channel: "main" })).toBe(3);
    expect(moved("gateway_upstream_errors_total", { channel: "main" })).toBe(1);
    // Two answered requests of 11 units each ((5 × 2 + 3 × 4) / 1e6 USD × 500,000).
    expect(moved("gateway_quota_spent_total", { model: "model-a" })).toBe(22);
    // Each answered request waited for its settlement's commit (one at a time here: sequential requests).
    expect(moved("gateway_sqlite_commits_total")).toBeGreaterThanOrEqual(3);
    expect(sumOf(after, "gateway_open_streams")).toBe(0);
    expect(sumOf(after, "gateway_channels_in_cooldown")).toBe(0);
    expect(after.some((sample) => sample.name === "gateway_tasks" && sample.labels.status === "queued")).toBe(true);
    expect(after.some((sample) => sample.name === "process_cpu_user_seconds_total")).toBe(true);
    const labelValues = after.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.some((value) => value.includes(apiKey.slice(3)) || value.includes("sk-"))).toBe(false);
    expect(labelValues).not.toContain("root");
  });

  it("sends the client's sane X-Request-Id back and records it in the usage log row; replaces an unsafe one", async () => {
    const clientId = `client-${crypto.randomBytes(6).toString("hex")}`;
    const answered = await chat(gateway, apiKey, { "x-request-id": clientId });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("x-request-id")).toBe(clientId);
    const refused = await chat(gateway, "sk-not-a-key", { "x-request-id": "bad id with spaces" });
    expect(refused.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const management = await gateway.client.management.GET("/api/token/", { params: { query: {} } });
    expect(management.response.headers.get("x-request-id")).toMatch(/^req_/);

    await gateway.gateway.context.billing.flush();
    const rows = await gateway.client.management.GET("/api/log/", { params: { query: { request_id: clientId } } });
    expect(rows.data?.data.items).toHaveLength(1);
    expect(rows.data?.data.items[0]).toMatchObject({ request_id: clientId, model: "model-a", status: "success" });
  });

  it("quotes the request id in the message of a 5xx answer", async () => {
    upstream.setFaults({ status: 500, times: 1 });
    const failed = await chat(gateway, apiKey);
    expect(failed.status).toBe(502);
    const requestId = failed.headers.get("x-request-id")!;
    const body = (await failed.json()) as { error: { message: string } };
    expect(body.error.message).toContain(`(request id ${requestId})`);
  });
});

describe("the request id in every log line of a request", () => {
  const logFolder = fs.mkdtempSync(path.join(os.tmpdir(), "request-id-logs-"));
  const logFile = path.join(logFolder, "gateway.log");
  let failing: FakeUpstream;
  let healthy: FakeUpstream;
  let gateway: TestGateway;
  let database: GatewayDatabase;

  beforeAll(async () => {
    failing = await startFakeOpenaiServer({ apiKey: "failing-secret" });
    healthy = await startFakeOpenaiServer({ apiKey: "healthy-secret" });
    database = await openDatabase("sqlite::memory:");
    gateway = await startTestGateway({
      database,
      logFile,
      configFile: {
        channels: [
          {
            name: "first",
            type: "openai",
            base_url: failing.url,
            key: "failing-secret",
            models: ["unpriced-model"],
            priority: 1,
          },
          { name: "second", type: "openai", base_url: healthy.url, key: "healthy-secret", models: ["unpriced-model"] },
        ],
        relay: { max_attempts: 2, cooldown_after_failures: 1, cooldown_seconds: 60 },
        // The model stays unpriced on purpose: its one-time "no price" warning is one of the request's lines.
        pricing: { allow_unpriced: true },
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await database.close();
    await Promise.all([failing.close(), healthy.close()]);
    fs.rmSync(logFolder, { recursive: true, force: true });
  });

  it("a retried request logs its retry, the channel's cooldown and the missing price, each with its id", async () => {
    const apiKey = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    failing.setFaults({ status: 500, times: 1 });
    const clientId = "support-ticket-4711";
    const answered = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "x-request-id": clientId },
      body: JSON.stringify({ model: "unpriced-model", messages: [{ role: "user", content: "hello" }], max_tokens: 5 }),
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("x-request-id")).toBe(clientId);

    const expectedMessages = [
      "has no price configured",
      "channel failed repeatedly; it cools down",
      "upstream attempt failed, trying the next channel",
    ];
    let lines: Array<{ msg: string; requestId?: string }> = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      lines = fs
        .readFileSync(logFile)
        .subarray(logStart)
        .toString("utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as { msg: string; requestId?: string });
      if (expectedMessages.every((message) => lines.some((line) => line.msg.includes(message)))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const message of expectedMessages) expect(lines.map((line) => line.msg).join("\n")).toContain(message);
    // Nothing else ran on this gateway meanwhile: every line written since the request started is that request's.
    for (const line of lines)
      expect({ msg: line.msg, requestId: line.requestId }).toEqual({ msg: line.msg, requestId: clientId });
  });
});

describe("/readyz when PostgreSQL or Redis stops answering", () => {
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let database: GatewayDatabase;
  let gateway: TestGateway;
  let upstream: FakeUpstream;
  const schema = `t_${crypto.randomBytes(6).toString("hex")}`;

  const administer = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const readiness = async () => {
    const response = await fetch(`${gateway.url}/readyz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    postgresProxy = await startTcpProxy(Number(postgresUrl.port || 5432), postgresUrl.hostname);
    redisProxy = await startTcpProxy(Number(redisUrl.port || 6379), redisUrl.hostname);
    await administer(`create schema ${schema}`);
    const proxiedPostgres = new URL(postgresUrl);
    proxiedPostgres.hostname = "127.0.0.1";
    proxiedPostgres.port = String(postgresProxy.port);
    database = await openDatabase(proxiedPostgres.toString(), { postgresSchema: schema, postgresPoolSize: 4 });
    const proxiedRedis = new URL(redisUrl);
    proxiedRedis.hostname = "127.0.0.1";
    proxiedRedis.port = String(redisProxy.port);
    gateway = await startTestGateway({
      database,
      configFile: channelConfig(upstream),
      environment: {
        REDIS_URL: proxiedRedis.toString(),
        REDIS_KEY_PREFIX: `test-${crypto.randomBytes(6).toString("hex")}`,
      },
    });
  });
  afterAll(async () => {
    postgresProxy?.restore();
    redisProxy?.restore();
    await gateway?.close();
    await database?.close();
    await postgresProxy?.close();
    await redisProxy?.close();
    await upstream?.close();
    await administer(`drop schema if exists ${schema} cascade`);
  });

  it("is ready while both answer, and 503 naming PostgreSQL while it is cut off, ready again after", async () => {
    expect(await readiness()).toEqual({
      status: 200,
      body: { status: "ready", checks: { database: "ok", redis: "ok" } },
    });
    postgresProxy.cut();
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "unavailable", message: "not ready: database unreachable" });
    expect((down.body.checks as Record<string, string>).database).not.toBe("ok");
    expect((down.body.checks as Record<string, string>).redis).toBe("ok");
    postgresProxy.restore();
    expect((await readiness()).status).toBe(200);
  });

  it("is 503 naming Redis while Redis is cut off, and per-key limits still hold on this instance", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 1_000_000, rpmLimit: 1 });
    redisProxy.cut();
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "unavailable", message: "not ready: redis unreachable" });
    // Never no limit and never waiting on Redis: the instance counts on its own.
    expect((await chat(gateway, key)).status).toBe(200);
    expect((await chat(gateway, key)).status).toBe(429);
    redisProxy.restore();
    await expect.poll(async () => (await readiness()).status, { timeout: 10_000, interval: 200 }).toBe(200);
  });
});
