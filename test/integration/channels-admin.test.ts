import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { GatewayClient } from "../../src/client/create-gateway-client.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const openaiKey = "sk-upstreamOpenaiKey000000000000000000000000000000Q2aZ";
const nativeKey = "AIzaSyUpstreamNativeKey00000000000000x9Qe";
const configKey = "sk-configFileKey0000000000000000000000000000000000Zz9y";
const allSecrets = [openaiKey, nativeKey, configKey];

function expectNoSecret(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of allSecrets) expect(text).not.toContain(secret);
}

describe.each(testDatabases)("channel admin API on $name", ({ database }) => {
  let gateway: TestGateway;
  let openaiUpstream: FakeUpstream;
  let nativeUpstream: Awaited<ReturnType<typeof startFakeNativeServer>>;
  let userClient: GatewayClient;
  let adminClient: GatewayClient;
  let configChannelId: number;

  beforeAll(async () => {
    openaiUpstream = await startFakeOpenaiServer({ apiKey: openaiKey });
    nativeUpstream = await startFakeNativeServer({ apiKey: nativeKey });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "config-openai",
            type: "openai",
            base_url: openaiUpstream.url,
            key: configKey,
            models: ["gpt-4o-mini"],
            priority: 10,
            timeouts: { connect_ms: 1500 },
          },
        ],
      },
    });
    const management = gateway.client.management;
    const signIn = async (username: string, role: "user" | "admin") => {
      const password = "correct horse battery";
      const created = await management.POST("/api/user/", { body: { username, password, role } });
      expect(created.response.status).toBe(200);
      const login = await gateway.clientFor({}).management.POST("/api/user/login", { body: { username, password } });
      return gateway.clientFor({ accessToken: login.data!.data.access_token });
    };
    userClient = await signIn(`plain-${database.dialect}`, "user");
    adminClient = await signIn(`admin-${database.dialect}`, "admin");
    const list = await management.GET("/api/channel/", { params: { query: {} } });
    configChannelId = list.data!.data.items.find((channel) => channel.name === "config-openai")!.id;
  });
  afterAll(async () => {
    await gateway?.close();
    await openaiUpstream?.close();
    await nativeUpstream?.close();
  });
  beforeEach(() => {
    openaiUpstream.reset();
    nativeUpstream.reset();
  });

  async function createOpenaiChannel(name: string, extra: Record<string, unknown> = {}) {
    const created = await gateway.client.management.POST("/api/channel/", {
      body: {
        name,
        type: "openai",
        base_url: openaiUpstream.url,
        key: openaiKey,
        models: ["gpt-4o-mini", "gpt-4o"],
        ...extra,
      },
    });
    expect(created.response.status).toBe(200);
    return created.data!.data;
  }

  it("lists the configuration file's channels, read-only and masked", async () => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { p: 1, size: 50 } } });
    expect(list.response.status).toBe(200);
    const channel = list.data!.data.items.find((item) => item.id === configChannelId)!;
    expect(channel).toMatchObject({
      name: "config-openai",
      type: "openai",
      base_url: openaiUpstream.url,
      keys: ["sk-c**********Zz9y"],
      models: ["gpt-4o-mini"],
      model_mapping: {},
      groups: ["default"],
      priority: 10,
      weight: 1,
      enabled: true,
      source: "config",
      timeouts: { connect_ms: 1500, header_ms: 120_000, idle_ms: 300_000 },
    });
    expect(list.data!.data).toMatchObject({ page: 1, page_size: 50, total: list.data!.data.items.length });
    expectNoSecret(list.data);

    const update = await gateway.client.management.PUT("/api/channel/", { body: { id: configChannelId, priority: 1 } });
    expect(update.response.status).toBe(403);
    expect(update.error).toEqual({
      success: false,
      message: `Channel ${configChannelId} comes from the configuration file and cannot be changed through the API.`,
    });
    const removal = await gateway.client.management.DELETE("/api/channel/{id}", {
      params: { path: { id: configChannelId } },
    });
    expect(removal.response.status).toBe(403);
    expect(removal.error!.message).toBe(
      `Channel ${configChannelId} comes from the configuration file and cannot be changed through the API.`,
    );
    expect(gateway.gateway.context.channelRouter.findChannel(configChannelId)?.priority).toBe(10);
  });

  it("answers 403 to users who are not administrators, and serves administrators", async () => {
    const denied = { success: false, message: "This operation requires an administrator." };
    const list = await userClient.management.GET("/api/channel/", { params: { query: {} } });
    expect([list.response.status, list.error]).toEqual([403, denied]);
    const get = await userClient.management.GET("/api/channel/{id}", { params: { path: { id: configChannelId } } });
    expect([get.response.status, get.error]).toEqual([403, denied]);
    const create = await userClient.management.POST("/api/channel/", {
      body: { name: "sneaky", type: "openai", base_url: "https://example.com", key: "k", models: ["m"] },
    });
    expect([create.response.status, create.error]).toEqual([403, denied]);
    const test = await userClient.management.POST("/api/channel/{id}/test", {
      params: { path: { id: configChannelId } },
      body: {},
    });
    expect([test.response.status, test.error]).toEqual([403, denied]);
    expect(openaiUpstream.requests).toHaveLength(0);

    const asAdmin = await adminClient.management.GET("/api/channel/{id}", {
      params: { path: { id: configChannelId } },
    });
    expect(asAdmin.response.status).toBe(200);
    expect(asAdmin.data!.data.name).toBe("config-openai");
  });

  it("validates new channels: a key is required, http(s) only, unique names", async () => {
    const management = gateway.client.management;
    const noKey = await management.POST("/api/channel/", {
      body: { name: "keyless", type: "openai", base_url: "https://example.com", models: ["m"] },
    });
    expect([noKey.response.status, noKey.error]).toEqual([400, { success: false, message: "key or keys is required" }]);
    const ftp = await management.POST("/api/channel/", {
      body: { name: "ftp", type: "openai", base_url: "ftp://example.com", key: "k", models: ["m"] },
    });
    expect(ftp.response.status).toBe(400);
    expect(ftp.error!.message).toBe("base_url must be an http or https URL.");
    // 2^32 ms: longer than any timer Node.js keeps, which would have fired at once and timed every call out.
    const endlessTimeout = await management.POST("/api/channel/", {
      body: {
        name: "endless",
        type: "openai",
        base_url: "https://example.com",
        key: "k",
        models: ["m"],
        timeouts: { connect_ms: 4_294_967_296 },
      },
    });
    expect(endlessTimeout.response.status).toBe(400);
    expect(endlessTimeout.error).toEqual({ success: false, message: expect.stringMatching(/connect_ms.*2147483647/) });
    const unknownType = await management.POST("/api/channel/", {
      body: { name: "pigeon", type: "pigeon" as "openai", base_url: "https://example.com", key: "k", models: ["m"] },
    });
    expect(unknownType.response.status).toBe(400);

    await createOpenaiChannel("unique-name");
    const duplicate = await management.POST("/api/channel/", {
      body: { name: "unique-name", type: "openai", base_url: "https://example.com", key: "k", models: ["m"] },
    });
    expect([duplicate.response.status, duplicate.error?.message]).toEqual([
      400,
      'A channel named "unique-name" already exists.',
    ]);
  });

  it("creates, reads, updates and deletes an API channel, reloading the router each time", async () => {
    const management = gateway.client.management;
    const router = gateway.gateway.context.channelRouter;
    const created = await management.POST("/api/channel/", {
      body: {
        name: "native-eu",
        type: "native",
        base_url: `${nativeUpstream.url}/`,
        keys: [nativeKey, "AIzaSySecondNativeKey000000000000Lm3T"],
        key: nativeKey,
        models: ["gmx-2.5-flash"],
        model_mapping: { "gmx-2.5-flash": "gmx-2.5-flash-001" },
        groups: ["default", "vip"],
        weight: 2,
        timeouts: { connect_ms: 5000, header_ms: 60000, idle_ms: 30000 },
      },
    });
    expect(created.response.status).toBe(200);
    const channel = created.data!.data;
    expect(channel).toEqual({
      id: expect.any(Number),
      name: "native-eu",
      type: "native",
      base_url: nativeUpstream.url,
      keys: ["AIza**********x9Qe", "AIza**********Lm3T"],
      models: ["gmx-2.5-flash"],
      model_mapping: { "gmx-2.5-flash": "gmx-2.5-flash-001" },
      groups: ["default", "vip"],
      priority: 0,
      weight: 2,
      enabled: true,
      source: "api",
      timeouts: { connect_ms: 5000, header_ms: 60000, idle_ms: 30000 },
      created_time: expect.any(Number),
    });
    expectNoSecret(created.data);
    expect(router.findChannel(channel.id)).toMatchObject({
      keys: [nativeKey, "AIzaSySecondNativeKey000000000000Lm3T"],
      weight: 2,
    });
    expect(router.listModels({ group: "vip", crossGroupRetry: false }, "default")).toContain("gmx-2.5-flash");

    const fetched = await management.GET("/api/channel/{id}", { params: { path: { id: channel.id } } });
    // The detail answer adds the channel's health (each key's too) to what the create answered.
    expect(fetched.data!.data).toEqual({
      ...channel,
      health: { state: "healthy" },
      key_health: [
        { index: 0, state: "healthy" },
        { index: 1, state: "healthy" },
      ],
    });

    const updated = await management.PUT("/api/channel/", {
      body: { id: channel.id, priority: 5, enabled: false, key: "AIzaSyReplacementKey0000000000000Ab12" },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data!.data).toEqual({ ...channel, priority: 5, enabled: false, keys: ["AIza**********Ab12"] });
    expect(router.findChannel(channel.id)).toMatchObject({
      enabled: false,
      keys: ["AIzaSyReplacementKey0000000000000Ab12"],
    });
    expect(router.planAttempts("gmx-2.5-flash", { group: "vip", crossGroupRetry: false }, "default", 3)).toEqual([]);

    const missing = await management.PUT("/api/channel/", { body: { id: 987_654, priority: 1 } });
    expect([missing.response.status, missing.error]).toEqual([
      404,
      { success: false, message: "Channel does not exist." },
    ]);

    const deleted = await management.DELETE("/api/channel/{id}", { params: { path: { id: channel.id } } });
    expect([deleted.response.status, deleted.data]).toEqual([200, { success: true, message: "" }]);
    expect(router.findChannel(channel.id)).toBeUndefined();
    const gone = await management.GET("/api/channel/{id}", { params: { path: { id: channel.id } } });
    expect([gone.response.status, gone.error]).toEqual([404, { success: false, message: "Channel does not exist." }]);
    const again = await management.DELETE("/api/channel/{id}", { params: { path: { id: channel.id } } });
    expect(again.response.status).toBe(404);
  });

  it("tests an openai channel with a tiny real request through the mapping", async () => {
    const channel = await createOpenaiChannel("openai-tested", { model_mapping: { "gpt-4o": "gpt-4o-2024-08-06" } });
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: channel.id } },
      body: { model: "gpt-4o" },
    });
    expect(result.response.status).toBe(200);
    expect(result.data).toEqual({
      success: true,
      message: "",
      data: { success: true, latency_ms: expect.any(Number), model: "gpt-4o", message: "" },
    });
    expect(openaiUpstream.requests).toHaveLength(1);
    const [sent] = openaiUpstream.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(sent.headers.authorization).toBe(`Bearer ${openaiKey}`);
    expect(sent.body).toEqual({
      model: "gpt-4o-2024-08-06",
      messages: [{ role: "user", content: "ping" }],
      max_tokens: 1,
    });

    // Without a body the channel's first model is tested.
    const defaulted = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: channel.id } },
    });
    expect(defaulted.data!.data).toMatchObject({ success: true, model: "gpt-4o-mini" });
  });

  it("reports upstream failures in data, never the key", async () => {
    const wrongKey = "sk-wrongUpstreamKey00000000000000000000000000000000WxYz";
    const channel = await createOpenaiChannel("openai-wrong-key", { key: wrongKey });
    const refused = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: channel.id } },
      body: {},
    });
    expect(refused.response.status).toBe(200);
    expect(refused.data!.success).toBe(true);
    expect(refused.data!.data).toMatchObject({ success: false, model: "gpt-4o-mini" });
    expect(refused.data!.data.message).toMatch(/^upstream answered 401: Incorrect API key provided/);
    expect(JSON.stringify(refused.data)).not.toContain(wrongKey);

    const healthy = await createOpenaiChannel("openai-faulty");
    openaiUpstream.setFaults({ status: 503, times: 1 });
    const failed = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: healthy.id } },
      body: {},
    });
    expect(failed.data!.data).toMatchObject({ success: false });
    expect(failed.data!.data.message).toMatch(/^upstream answered 503: /);

    const closed = await startFakeOpenaiServer();
    await closed.close();
    const unreachable = await createOpenaiChannel("openai-unreachable", { base_url: closed.url });
    const down = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: unreachable.id } },
      body: {},
    });
    expect(down.response.status).toBe(200);
    expect(down.data!.data).toMatchObject({ success: false });
    expect(down.data!.data.message).toMatch(/^upstream could not be reached: /);
  });

  it("tests a native channel, disabled or not, and refuses models it does not serve", async () => {
    const created = await gateway.client.management.POST("/api/channel/", {
      body: {
        name: "native-tested",
        type: "native",
        base_url: nativeUpstream.url,
        key: nativeKey,
        models: ["gmx-2.5-flash"],
        enabled: false,
      },
    });
    const channel = created.data!.data;
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: channel.id } },
      body: {},
    });
    expect(result.data!.data).toMatchObject({ success: true, model: "gmx-2.5-flash", message: "" });
    const [sent] = nativeUpstream.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v1beta/models/gmx-2.5-flash:generateContent" });
    expect(sent.headers["x-goog-api-key"]).toBe(nativeKey);
    expect(sent.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "ping" }] }],
      generationConfig: { maxOutputTokens: 1 },
    });

    const wrongModel = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: channel.id } },
      body: { model: "gpt-4o" },
    });
    expect([wrongModel.response.status, wrongModel.error]).toEqual([
      400,
      { success: false, message: `Channel ${channel.id} does not serve model "gpt-4o".` },
    ]);
    const missing = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: 987_654 } },
      body: {},
    });
    expect(missing.response.status).toBe(404);
  });
});
