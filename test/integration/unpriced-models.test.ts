import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const refusal = (model: string) =>
  `model ${model} has no price: the administrator has not priced it, so it cannot be used.`;

/** Every billed operation, each asking for a model a channel serves but nobody priced. */
const billedCalls: Array<{ name: string; path: string; model: string; body: Record<string, unknown> }> = [
  {
    name: "chat",
    path: "/v1/chat/completions",
    model: "chat-unpriced",
    body: { messages: [{ role: "user", content: "hi" }] },
  },
  { name: "Responses", path: "/v1/responses", model: "chat-unpriced", body: { input: "hi" } },
  { name: "embeddings", path: "/v1/embeddings", model: "embed-unpriced", body: { input: "hi" } },
  { name: "speech", path: "/v1/audio/speech", model: "speech-1", body: { input: "hi", voice: "alloy" } },
  { name: "images", path: "/v1/images/generations", model: "img-c-2", body: { prompt: "a cat" } },
  { name: "video", path: "/v1/videos", model: "vid-a-2", body: { prompt: "rain", seconds: 4 } },
];

function channels(openaiUrl: string, nativeUrl: string) {
  return [
    {
      name: "openai-unpriced",
      type: "openai",
      base_url: openaiUrl,
      key: "openai-secret",
      models: ["chat-unpriced", "chat-free", "embed-unpriced", "speech-1", "img-c-2", "vid-a-2"],
      model_mapping: { "vid-a-2": "sora-2" },
    },
    { name: "native-unpriced", type: "native", base_url: nativeUrl, key: "native-secret", models: ["gmx-2.5-pro"] },
  ];
}

describe.each(testDatabases)("a served model without a price on $name", ({ database }) => {
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  let gateway: TestGateway;
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "unpriced-models-")), "gateway.log");

  beforeAll(async () => {
    [openai, native] = await Promise.all([
      startFakeOpenaiServer({ apiKey: "openai-secret" }),
      startFakeNativeServer({ apiKey: "native-secret" }),
    ]);
    gateway = await startTestGateway({
      database,
      logFile,
      // chat-free is priced at zero on purpose: an empty entry.
      configFile: { channels: channels(openai.url, native.url), pricing: { "chat-free": {} } },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([openai.close(), native.close()]);
  });
  beforeEach(() => {
    openai.reset();
    native.reset();
  });

  const post = (url: string, key: string, body: unknown) =>
    fetch(`${gateway.url}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });

  it.each(billedCalls)("refuses $name with 403, bills nothing and calls no upstream", async ({ path, model, body }) => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 10_000_000 });
    const answer = await post(path, key, { model, ...body });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({
      error: { message: refusal(model), type: "permission_error", code: "model_not_priced", param: "model" },
    });
    expect(openai.requests).toHaveLength(0);
    const token = await readToken(gateway, id);
    expect({ remain: token.remain_quota, used: token.used_quota }).toEqual({ remain: 10_000_000, used: 0 });
  });

  it("refuses native generation with PERMISSION_DENIED, a thinking variant included", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 10_000_000 });
    for (const model of ["gmx-2.5-pro", "gmx-2.5-pro-thinking-low"]) {
      const answer = await fetch(`${gateway.url}/v1beta/models/${model}:generateContent`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-goog-api-key": key },
        body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
      });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({
        error: { code: 403, message: refusal(model), status: "PERMISSION_DENIED" },
      });
    }
    expect(native.requests).toHaveLength(0);
  });

  it("serves a model priced at zero on purpose", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 10 });
    const answer = await post("/v1/chat/completions", key, {
      model: "chat-free",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(answer.status).toBe(200);
  });

  it("names the served models without a price in the start-up log", () => {
    const lines = fs
      .readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("served models without a price"))
      .map((line) => JSON.parse(line) as { level: number; models: string[] });
    expect(lines[0]).toMatchObject({
      level: 40,
      models: ["chat-unpriced", "embed-unpriced", "gmx-2.5-pro", "img-c-2", "speech-1", "vid-a-2"],
    });
  });
});

describe.each(testDatabases)("pricing.allow_unpriced on $name", ({ database }) => {
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    [openai, native] = await Promise.all([
      startFakeOpenaiServer({ apiKey: "openai-secret" }),
      startFakeNativeServer({ apiKey: "native-secret" }),
    ]);
    gateway = await startTestGateway({
      database,
      configFile: { channels: channels(openai.url, native.url), pricing: { allow_unpriced: true } },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([openai.close(), native.close()]);
  });

  it("serves an unpriced model at 0 when the operator allows it", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1 });
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: "chat-unpriced", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(answer.status).toBe(200);
    expect((await readToken(gateway, id)).remain_quota).toBe(1);
  });
});
