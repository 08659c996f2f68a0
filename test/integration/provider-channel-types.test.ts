import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeArkServer } from "../../mocks/upstreams/ark/start-fake-ark-server.js";
import { startFakeDashscopeServer } from "../../mocks/upstreams/dashscope/start-fake-dashscope-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const arkKey = "ark-upstream-key-0123456789";
const dashscopeKey = "dashscope-upstream-key-0123456789";

describe.each(testDatabases)("ark and dashscope channel tests against their fakes on $name", ({ database }) => {
  let ark: FakeUpstream;
  let dashscope: FakeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    [ark, dashscope] = await Promise.all([
      startFakeArkServer({ apiKey: arkKey }),
      startFakeDashscopeServer({ apiKey: dashscopeKey }),
    ]);
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          { name: "ark-main", type: "ark", base_url: ark.url, key: arkKey, models: ["img-b-4-0-250828"] },
          { name: "ds-main", type: "dashscope", base_url: dashscope.url, key: dashscopeKey, models: ["img-d-plus"] },
        ],
        pricing: { "img-b-4-0-250828": { per_image: 0.03 }, "img-d-plus": { per_image: 0.02 } },
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([ark.close(), dashscope.close()]);
  });
  beforeEach(() => {
    ark.reset();
    dashscope.reset();
  });

  const channelIdOf = async (name: string) => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { p: 1, size: 50 } } });
    return list.data!.data.items.find((channel) => channel.name === name)!.id;
  };
  const createChannel = async (body: {
    name: string;
    type: "ark" | "dashscope";
    base_url: string;
    key: string;
    models: string[];
  }) => {
    const created = await gateway.client.management.POST("/api/channel/", { body });
    expect(created.response.status).toBe(200);
    expect(created.data!.data.type).toBe(body.type);
    return created.data!.data.id;
  };
  const testChannel = async (id: number) => {
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id } },
      body: {},
    });
    expect(result.response.status).toBe(200);
    return result.data!.data;
  };
  const readsOf = (upstream: FakeUpstream) =>
    upstream.requests.map((request) => ({
      method: request.method,
      path: request.path,
      authorization: request.headers.authorization,
    }));

  it("tests channels from the config file with the read that proves the Bearer key, reporting the latency", async () => {
    const arkResult = await testChannel(await channelIdOf("ark-main"));
    expect(arkResult).toMatchObject({ success: true, model: "img-b-4-0-250828", message: "" });
    expect(arkResult.latency_ms).toEqual(expect.any(Number));
    expect(arkResult.latency_ms).toBeGreaterThanOrEqual(0);
    const dashscopeResult = await testChannel(await channelIdOf("ds-main"));
    expect(dashscopeResult).toMatchObject({ success: true, model: "img-d-plus", message: "" });
    expect(dashscopeResult.latency_ms).toEqual(expect.any(Number));
    expect(readsOf(ark)).toEqual([
      {
        method: "GET",
        path: "/api/v3/contents/generations/tasks?page_num=1&page_size=1",
        authorization: `Bearer ${arkKey}`,
      },
    ]);
    expect(readsOf(dashscope)).toEqual([
      { method: "GET", path: "/api/v1/tasks/gateway-channel-test", authorization: `Bearer ${dashscopeKey}` },
    ]);
  });

  it("tests channels an admin creates: passes with the right key, fails clearly with a wrong one, never echoing it", async () => {
    const arkId = await createChannel({
      name: "ark-admin",
      type: "ark",
      base_url: ark.url,
      key: arkKey,
      models: ["img-b-5-0-pro-260628"],
    });
    expect(await testChannel(arkId)).toMatchObject({ success: true, model: "img-b-5-0-pro-260628", message: "" });
    const dashscopeId = await createChannel({
      name: "ds-admin",
      type: "dashscope",
      base_url: dashscope.url,
      key: dashscopeKey,
      models: ["img-d-edit-plus"],
    });
    expect(await testChannel(dashscopeId)).toMatchObject({ success: true, model: "img-d-edit-plus", message: "" });

    const wrongArkKey = "wrong-ark-key-9876543210";
    const wrongArk = await testChannel(
      await createChannel({
        name: "ark-wrong",
        type: "ark",
        base_url: ark.url,
        key: wrongArkKey,
        models: ["img-b-4-0-250828"],
      }),
    );
    expect(wrongArk).toMatchObject({ success: false, model: "img-b-4-0-250828" });
    expect(wrongArk.latency_ms).toEqual(expect.any(Number));
    expect(wrongArk.message).toMatch(
      /^upstream answered 401: The API key or AK\/SK in the request is missing or invalid\. Request id: \d+$/,
    );
    expect(JSON.stringify(wrongArk)).not.toContain(wrongArkKey);

    const wrongDashscopeKey = "wrong-dashscope-key-9876543210";
    const wrongDashscope = await testChannel(
      await createChannel({
        name: "ds-wrong",
        type: "dashscope",
        base_url: dashscope.url,
        key: wrongDashscopeKey,
        models: ["img-d-plus"],
      }),
    );
    expect(wrongDashscope).toMatchObject({
      success: false,
      model: "img-d-plus",
      message: "upstream answered 401: Invalid API-key provided.",
    });
    expect(JSON.stringify(wrongDashscope)).not.toContain(wrongDashscopeKey);
  });

  it("never plans an ark channel for a capability its adapter lacks (chat)", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: "img-b-4-0-250828", messages: [{ role: "user", content: "hi" }] }),
    });
    // No channel serves the model for chat: the model is not found for this operation, as OpenAI answers it.
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("model_not_found");
    expect(ark.requests).toEqual([]);
  });
});
