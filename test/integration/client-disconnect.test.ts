import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { parsePrometheusText, type PrometheusSample } from "../support/parse-prometheus-text.js";
import { scanLogsForKeys } from "../support/scan-logs-for-keys.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// A client that goes away is ordinary traffic: one info line with its request id, no error, no 5xx in /metrics.
const logFolder = fs.mkdtempSync(path.join(os.tmpdir(), "client-disconnect-logs-"));
const logFile = path.join(logFolder, "gateway.log");
const database = await openDatabase("sqlite::memory:");

describe("a client that disconnects", () => {
  const metricsToken = `metrics-${crypto.randomBytes(8).toString("hex")}`;
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    gateway = await startTestGateway({
      database,
      logFile,
      configFile: {
        channels: [
          { name: "main", type: "openai", base_url: upstream.url, key: "upstream-secret", models: ["model-a"] },
        ],
        pricing: { "model-a": { input: 2, output: 4 } },
      },
      environment: { METRICS_TOKEN: metricsToken, LOG_LEVEL: "debug" },
    });
    apiKey = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await database.close();
    expect(scanLogsForKeys(logFolder)).toEqual([]);
    fs.rmSync(logFolder, { recursive: true, force: true });
  });

  async function scrape(): Promise<PrometheusSample[]> {
    const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    return parsePrometheusText(await response.text()).samples;
  }
  const sumOf = (samples: PrometheusSample[], labels: Record<string, string>) =>
    samples
      .filter(
        (sample) =>
          sample.name === "gateway_requests_total" &&
          Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      )
      .reduce((sum, sample) => sum + sample.value, 0);

  /**
   * Sends a chat request with our own request id and destroys the socket once `leaveWhen` says so: after a delay
   * (the upstream is still thinking) or at the first bytes of the answer (a stream under way).
   */
  function chatAndLeave(requestId: string, body: object, leaveWhen: "before-answer" | "mid-stream"): Promise<void> {
    return new Promise((resolve) => {
      const request = http.request(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${apiKey}`,
          "content-type": "application/json",
          "x-request-id": requestId,
        },
      });
      request.on("error", () => resolve());
      request.on("close", () => resolve());
      request.on("response", (response) => {
        response.once("data", () => {
          if (leaveWhen === "mid-stream") request.destroy();
        });
      });
      request.end(JSON.stringify(body));
      if (leaveWhen === "before-answer") setTimeout(() => request.destroy(), 150);
    });
  }

  async function linesOf(requestId: string): Promise<Array<Record<string, unknown>>> {
    // The gateway finishes its side (settlement, the log line) after the client left; pino writes asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 600));
    return fs
      .readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes(requestId))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it("before the answer: logged at info with its request id, not as an internal error, not a 5xx", async () => {
    const before = await scrape();
    upstream.setFaults({ latencyMs: 600, times: 1 });
    const requestId = `leaves-early-${crypto.randomBytes(4).toString("hex")}`;
    await chatAndLeave(requestId, { model: "model-a", messages: [{ role: "user", content: "hi" }] }, "before-answer");
    const lines = await linesOf(requestId);
    expect(lines.some((line) => line.level === 30 && /client (disconnected|closed)/i.test(String(line.msg)))).toBe(
      true,
    );
    for (const line of lines) {
      expect(line.level as number).toBeLessThan(40);
      expect(JSON.stringify(line)).not.toContain("Internal server error");
    }
    const after = await scrape();
    expect(sumOf(after, { status_class: "5xx" }) - sumOf(before, { status_class: "5xx" })).toBe(0);
    expect(sumOf(after, { status_class: "client_closed" }) - sumOf(before, { status_class: "client_closed" })).toBe(1);
  });

  it("mid-stream: logged at info with its request id, not as an error, not a 5xx", async () => {
    const before = await scrape();
    upstream.setFaults({ chunkDelayMs: 200, times: 1 });
    const requestId = `leaves-mid-stream-${crypto.randomBytes(4).toString("hex")}`;
    await chatAndLeave(
      requestId,
      { model: "model-a", messages: [{ role: "user", content: "tell me a long story" }], stream: true },
      "mid-stream",
    );
    const lines = await linesOf(requestId);
    expect(lines.some((line) => line.level === 30 && /client (disconnected|closed)/i.test(String(line.msg)))).toBe(
      true,
    );
    for (const line of lines) expect(line.level as number).toBeLessThan(40);
    const after = await scrape();
    expect(sumOf(after, { status_class: "5xx" }) - sumOf(before, { status_class: "5xx" })).toBe(0);
    expect(sumOf(after, { status_class: "client_closed" }) - sumOf(before, { status_class: "client_closed" })).toBe(1);
  });
});
