import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// The fast lane (src/http/fast-lane/) must be invisible: every request below gets the same answer from a gateway
// with it and from one that sends everything through the Express stack (FAST_LANE=false), on the same database.
const database = await openDatabase("sqlite::memory:");

interface RawAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

async function send(
  url: string,
  init: { path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  const response = await fetch(`${url}${init.path ?? "/v1/chat/completions"}`, {
    method: "POST",
    headers: init.headers,
    body: init.body,
  });
  return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() };
}

/** The parts of an answer that do not change from call to call (ids and timestamps of successful answers do). */
function stableParts(answer: RawAnswer): unknown {
  // 5xx messages end with the request's own id.
  if (answer.status !== 200) {
    const body = answer.body.replace(/ \(request id [^)]+\)/, "");
    return { status: answer.status, contentType: answer.contentType, body: JSON.parse(body) };
  }
  if (answer.contentType?.startsWith("text/event-stream")) {
    const events = answer.body.split("\n\n").filter((event) => event.length > 0);
    return { status: 200, contentType: answer.contentType, events: events.length, last: events.at(-1) };
  }
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  const { id: _id, created: _created, created_at: _createdAt, ...rest } = body;
  return { status: 200, contentType: answer.contentType, keys: Object.keys(body).sort(), rest: stripIds(rest) };
}

function stripIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripIds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "id" && key !== "created_at")
      .map(([key, inner]) => [key, stripIds(inner)]),
  );
}

describe("fast lane: the same answers as the full Express stack", () => {
  let upstream: FakeUpstream;
  let fast: TestGateway;
  let express: TestGateway;
  let key: string;
  let tokenId: number;
  const json = () => ({ "content-type": "application/json", authorization: `Bearer ${key}` });

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    const configFile = {
      channels: [
        {
          name: "main",
          type: "openai",
          base_url: upstream.url,
          key: "upstream-secret",
          models: ["model-a", "embed-a"],
        },
      ],
      pricing: { "model-a": { input: 2, output: 4 }, "embed-a": { input: 1 } },
    };
    // A small body limit, so the 413 is cheap to provoke.
    fast = await startTestGateway({ database: database, configFile, environment: { JSON_BODY_LIMIT: "4kb" } });
    express = await startTestGateway({
      database: database,
      configFile,
      environment: { JSON_BODY_LIMIT: "4kb", FAST_LANE: "false" },
    });
    // Both bootstrap root on the one database; the second sign-in is the one that holds.
    const apiKey = await createApiKey(express, { remainQuota: 10_000_000 });
    key = apiKey.key;
    tokenId = apiKey.id;
  });
  afterAll(async () => {
    await fast.close();
    await express.close();
    await upstream.close();
    await database.close();
  });

  const chat = { model: "model-a", messages: [{ role: "user", content: "one two three" }], max_tokens: 5 };
  const cases: Array<{
    name: string;
    request: () => { path?: string; headers?: Record<string, string>; body?: string };
    status: number;
  }> = [
    { name: "a valid chat completion", request: () => ({ headers: json(), body: JSON.stringify(chat) }), status: 200 },
    {
      name: "a valid streamed chat completion",
      request: () => ({ headers: json(), body: JSON.stringify({ ...chat, stream: true }) }),
      status: 200,
    },
    {
      name: "a charset in the content type",
      request: () => ({
        headers: { ...json(), "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify(chat),
      }),
      status: 200,
    },
    {
      name: "a Responses call",
      request: () => ({
        path: "/v1/responses",
        headers: json(),
        body: JSON.stringify({ model: "model-a", input: "hello" }),
      }),
      status: 200,
    },
    {
      name: "an embeddings call",
      request: () => ({
        path: "/v1/embeddings",
        headers: json(),
        body: JSON.stringify({ model: "embed-a", input: "hello" }),
      }),
      status: 200,
    },
    {
      name: "a body without messages",
      request: () => ({ headers: json(), body: JSON.stringify({ model: "model-a" }) }),
      status: 400,
    },
    {
      name: "a wrongly typed field",
      request: () => ({ headers: json(), body: JSON.stringify({ ...chat, temperature: "hot" }) }),
      status: 400,
    },
    { name: "malformed JSON", request: () => ({ headers: json(), body: '{"model": "model-a",' }), status: 400 },
    { name: "a JSON string instead of an object", request: () => ({ headers: json(), body: '"hello"' }), status: 400 },
    { name: "a JSON array", request: () => ({ headers: json(), body: "[]" }), status: 400 },
    { name: "an empty body", request: () => ({ headers: json(), body: "" }), status: 400 },
    {
      name: "an unknown key",
      request: () => ({
        headers: { ...json(), authorization: `Bearer sk-${"x".repeat(48)}` },
        body: JSON.stringify(chat),
      }),
      status: 401,
    },
    {
      name: "no key",
      request: () => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(chat) }),
      status: 401,
    },
    {
      name: "an unknown key and an invalid body",
      request: () => ({ headers: { ...json(), authorization: `Bearer sk-${"x".repeat(48)}` }, body: "{}" }),
      status: 401,
    },
    {
      name: "a model without a channel",
      request: () => ({ headers: json(), body: JSON.stringify({ ...chat, model: "model-z" }) }),
      status: 404,
    },
    {
      name: "another content type",
      request: () => ({ headers: { ...json(), "content-type": "text/plain" }, body: JSON.stringify(chat) }),
      status: 415,
    },
    {
      name: "a body over the limit",
      request: () => ({
        headers: json(),
        body: JSON.stringify({ ...chat, messages: [{ role: "user", content: "x".repeat(5000) }] }),
      }),
      status: 413,
    },
    {
      name: "a query string",
      request: () => ({ path: "/v1/chat/completions?trace=1", headers: json(), body: JSON.stringify(chat) }),
      status: 200,
    },
  ];

  it.each(cases)("$name: status $status from both", async ({ request, status }) => {
    const [viaFastLane, viaExpress] = await Promise.all([send(fast.url, request()), send(express.url, request())]);
    expect(viaFastLane.status).toBe(status);
    expect(stableParts(viaFastLane)).toEqual(stableParts(viaExpress));
  });

  it("bills a fast-lane call exactly as the Express stack does (10 prompt + 5 completion tokens at 2/4 USD per 1M = 20 units)", async () => {
    const body = JSON.stringify({
      model: "model-a",
      messages: [{ role: "user", content: "one two three four five six seven" }],
      max_tokens: 5,
    });
    for (const gateway of [fast, express]) {
      const before = await readToken(express, tokenId);
      const answer = await send(gateway.url, { headers: json(), body });
      expect(answer.status).toBe(200);
      const after = await readToken(express, tokenId);
      expect(before.remain_quota - after.remain_quota).toBe(20);
    }
  });

  it("forwards only the fields the client sent, as the Express stack does (no spec defaults injected upstream)", async () => {
    upstream.reset();
    await send(fast.url, { headers: json(), body: JSON.stringify(chat) });
    await send(express.url, { headers: json(), body: JSON.stringify(chat) });
    expect(upstream.requests.map((request) => request.body)).toEqual([chat, chat]);
  });
});
