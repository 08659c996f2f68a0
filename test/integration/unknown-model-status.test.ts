import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("a model no channel serves, and one whose channels are down, on $name", ({ database }) => {
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  let gateway: TestGateway;
  let key: string;

  beforeAll(async () => {
    [openai, native] = await Promise.all([
      startFakeOpenaiServer({ apiKey: "openai-secret" }),
      startFakeNativeServer({ apiKey: "native-secret" }),
    ]);
    gateway = await startTestGateway({
      database,
      configFile: {
        groups: { default: { ratio: 1 }, vip: { ratio: 2 } },
        channels: [
          { name: "up", type: "openai", base_url: openai.url, key: "openai-secret", models: ["gpt-up"] },
          {
            name: "vip-only",
            type: "openai",
            base_url: openai.url,
            key: "openai-secret",
            models: ["gpt-vip"],
            groups: ["vip"],
          },
          {
            name: "down",
            type: "openai",
            base_url: openai.url,
            key: "openai-secret",
            models: ["gpt-down"],
            enabled: false,
          },
          {
            name: "native-down",
            type: "native",
            base_url: native.url,
            key: "native-secret",
            models: ["gmx-down"],
            enabled: false,
          },
        ],
        pricing: {
          "gpt-up": { input: 1 },
          "gpt-vip": { input: 1 },
          "gpt-down": { input: 1 },
          "gmx-down": { input: 1 },
        },
        relay: { cooldown_seconds: 45 },
      },
    });
    key = (await createApiKey(gateway, { remainQuota: 10_000_000 })).key;
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([openai.close(), native.close()]);
  });

  const chat = (model: string) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
  const generate = (model: string) =>
    fetch(`${gateway.url}/v1beta/models/${model}:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": key },
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });

  it.each(["gpt-typo", "gpt-vip"])(
    "answers %s, which no channel of the key's groups serves, 404 model_not_found on /v1",
    async (model) => {
      const answer = await chat(model);
      expect(answer.status).toBe(404);
      expect(answer.headers.get("retry-after")).toBeNull();
      expect(await answer.json()).toEqual({
        error: {
          message: `no available channel for model ${model}`,
          type: "invalid_request_error",
          code: "model_not_found",
          param: "model",
        },
      });
    },
  );

  it("answers 404 model_not_found on images, embeddings and audio too", async () => {
    for (const [path, body] of [
      ["/v1/images/generations", { model: "img-c-typo", prompt: "a cat" }],
      ["/v1/embeddings", { model: "embed-typo", input: "hi" }],
    ] as const) {
      const answer = await fetch(`${gateway.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(await answer.json()).toMatchObject({ error: { code: "model_not_found" } });
    }
  });

  it("gives the OpenAI SDK a NotFoundError it does not retry", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 2 });
    openai.reset();
    const started = performance.now();
    await expect(
      client.chat.completions.create({ model: "gpt-typo", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // The SDK retries 5xx with back-off (at least 0.5 s); a 404 comes back at once.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("answers 404 NOT_FOUND on /v1beta", async () => {
    const answer = await generate("gmx-typo");
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      error: { code: 404, message: "no available channel for model gmx-typo", status: "NOT_FOUND" },
    });
  });

  it("keeps 503 with Retry-After for a served model whose channels are all disabled", async () => {
    const answer = await chat("gpt-down");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("45");
    expect(await answer.json()).toMatchObject({
      error: { type: "upstream_error", code: "no_available_channel" },
    });
    const nativeAnswer = await generate("gmx-down");
    expect(nativeAnswer.status).toBe(503);
    expect(nativeAnswer.headers.get("retry-after")).toBe("45");
    expect(await nativeAnswer.json()).toMatchObject({ error: { code: 503, status: "UNAVAILABLE" } });
    expect(openai.requests).toHaveLength(0);
    expect(native.requests).toHaveLength(0);
  });
});
