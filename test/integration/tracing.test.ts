import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startFakeOpenaiServer,
  type FakeOpenaiUpstream,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { createLogger } from "../../src/logging/logger.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTracing } from "../../src/tracing/start-tracing.js";
import type { TracingHooks } from "../../src/tracing/tracing-hooks.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Spans as an operator's collector receives them: OTLP over HTTP, JSON encoding, read back by a small receiver.
interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
}
interface ReceivedSpan extends Omit<OtlpSpan, "attributes"> {
  attributes: Record<string, string | number | boolean>;
}

function readValue(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? "";
}

function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url !== "/v1/traces" || !String(request.headers["content-type"]).includes("json")) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
      };
      for (const resourceSpans of body.resourceSpans)
        for (const scopeSpans of resourceSpans.scopeSpans)
          for (const span of scopeSpans.spans)
            spans.push({
              ...span,
              attributes: Object.fromEntries(span.attributes.map(({ key, value }) => [key, readValue(value)])),
            });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  return new Promise((resolve) =>
    server.once("listening", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        spans,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

const [{ database }] = await openTestDatabases();

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let broken: FakeOpenaiUpstream;
  let healthy: FakeOpenaiUpstream;
  let gateway: TestGateway;
  let tracing: TracingHooks | undefined;
  let key: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = await startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "gateway-under-test" },
      createLogger({ level: "silent" }),
    );
    broken = await startFakeOpenaiServer({ idInfix: "broken" });
    broken.setFaults({ status: 503 });
    healthy = await startFakeOpenaiServer({ apiKey: "sk-healthy-upstream-0123456789" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "first-choice",
            type: "openai",
            base_url: broken.url,
            key: "sk-broken-upstream-0123456789",
            models: ["model-t"],
            priority: 10,
          },
          {
            name: "fallback",
            type: "openai",
            base_url: healthy.url,
            key: "sk-healthy-upstream-0123456789",
            models: ["model-t"],
            model_mapping: { "model-t": "gpt-upstream" },
          },
          {
            name: "videos",
            type: "openai",
            base_url: healthy.url,
            key: "sk-healthy-upstream-0123456789",
            models: ["vid-a-2"],
            model_mapping: { "vid-a-2": "sora-2" },
          },
        ],
        pricing: { "model-t": { input: 0, output: 0 }, "vid-a-2": { per_second: 0.1 } },
        relay: { max_attempts: 2, cooldown_after_failures: 1000 },
        tasks: { poll_interval_ms: 40 },
      },
    });
    ({ key } = await createApiKey(gateway, { unlimitedQuota: true }));
  });
  afterAll(async () => {
    await gateway?.close();
    await tracing?.shutdown();
    await Promise.all([broken?.close(), healthy?.close(), receiver?.close()]);
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("exports a chat with a failover, a stream and a video task poll with their attributes, and continues the client's trace upstream", async () => {
    const clientTraceId = crypto.randomBytes(16).toString("hex");
    const clientSpanId = crypto.randomBytes(8).toString("hex");
    const chat = await post(
      "/v1/chat/completions",
      { model: "model-t", messages: [{ role: "user", content: "hello there" }] },
      { traceparent: `00-${clientTraceId}-${clientSpanId}-01` },
    );
    expect(chat.status).toBe(200);
    const chatRequestId = chat.headers.get("x-request-id");
    await chat.arrayBuffer();

    const stream = await post("/v1/chat/completions", {
      model: "model-t",
      messages: [{ role: "user", content: "stream please" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(stream.status).toBe(200);
    await stream.text();

    healthy.videos.setTimeline({ queuedPolls: 1, runningPolls: 1 });
    const created = (await (await post("/v1/videos", { model: "vid-a-2", prompt: "a boat", seconds: "4" })).json()) as {
      id: string;
    };
    await expect
      .poll(
        async () => {
          const answer = await fetch(`${gateway.url}/v1/videos/${created.id}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          return ((await answer.json()) as { status: string }).status;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe("completed");

    await tracing!.shutdown();
    tracing = undefined;
    const spans = receiver.spans;

    // The chat: its server span continues the client's trace; two attempts, the first left for a 503.
    const chatSpan = spans.find((span) => span.attributes["gateway.request_id"] === chatRequestId)!;
    expect(chatSpan).toMatchObject({
      traceId: clientTraceId,
      parentSpanId: clientSpanId,
      name: "POST /v1/chat/completions",
      kind: 2,
    });
    expect(chatSpan.attributes).toMatchObject({
      "http.route": "/v1/chat/completions",
      "http.response.status_code": 200,
      "gateway.token.id": expect.any(Number),
      "gateway.user.id": expect.any(Number),
    });
    const attempts = spans
      .filter((span) => span.parentSpanId === chatSpan.spanId)
      .sort((left, right) => Number(left.attributes["gateway.attempt"]) - Number(right.attributes["gateway.attempt"]));
    expect(attempts.map((span) => span.name)).toEqual(["chat model-t", "chat gpt-upstream"]);
    expect(attempts[0]!.attributes).toMatchObject({
      "gateway.channel.name": "first-choice",
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "model-t",
      "error.type": "upstream_error",
    });
    expect(attempts[1]!.attributes).toMatchObject({
      "gateway.channel.name": "fallback",
      "gateway.retry_reason": "upstream_error (upstream 503)",
      "gen_ai.request.model": "gpt-upstream",
      "gen_ai.response.model": "gpt-upstream",
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
    // The upstream call is a child of its attempt, and the upstream received that span as its parent.
    const upstreamCall = spans.find((span) => span.parentSpanId === attempts[1]!.spanId)!;
    expect(upstreamCall.attributes).toMatchObject({
      "http.request.method": "POST",
      "url.path": "/v1/chat/completions",
      "http.response.status_code": 200,
    });
    const forwarded = healthy.requests.find((request) => request.path === "/v1/chat/completions")!;
    expect(forwarded.headers.traceparent).toBe(`00-${clientTraceId}-${upstreamCall.spanId}-01`);

    // The stream: time to first chunk on its attempt.
    const streamAttempt = spans.find(
      (span) => span.attributes["gateway.stream"] === true && span.attributes["gateway.channel.name"] === "fallback",
    )!;
    expect(streamAttempt.attributes).toMatchObject({
      "gen_ai.response.time_to_first_chunk": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });

    // The video task's polls: each a span with its upstream call as a child.
    const polls = spans.filter((span) => span.name === "video_task poll");
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.at(-1)!.attributes).toMatchObject({
      "gateway.task.id": created.id,
      "gen_ai.request.model": "vid-a-2",
      "gateway.task.status": "completed",
    });
    const pollCall = spans.find((span) => span.parentSpanId === polls.at(-1)!.spanId)!;
    expect(pollCall.attributes["http.request.method"]).toBe("GET");

    // Never a key in a span.
    const exported = JSON.stringify(spans);
    for (const secret of [key, "sk-healthy-upstream-0123456789", "sk-broken-upstream-0123456789"])
      expect(exported).not.toContain(secret);
  });
});
