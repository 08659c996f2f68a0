import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

// Prices and groups as data: seeded by the configuration file, changed by administrators through the API, applied
// from the next request without a restart, each change an audit row.
const testDatabases = await openTestDatabases();

// 3 output tokens (the fake truncates to max_tokens) at 100,000 USD per 1M = $0.30 = 150,000 units.
const configFile = (upstreamUrl: string) => ({
  channels: [
    {
      name: "main",
      type: "openai",
      base_url: upstreamUrl,
      key: "k1",
      models: ["model-x", "model-new"],
      groups: ["default", "team"],
    },
  ],
  groups: { default: { ratio: 1 }, vip: { ratio: 2, description: "Faster channels" } },
  pricing: { "model-x": { input: 0, output: 100_000 } },
});

describe.each(testDatabases)("prices and groups as data on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let alice: SignedInUser;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({ database, configFile: configFile(upstream.url) });
    alice = await createSignedInUser(gateway);
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  const keyFor = async (user: SignedInUser, body: Parameters<typeof createTokenForTest>[1] = {}) => {
    const token = await createTokenForTest(user.client, { unlimited_quota: true, ...body });
    return { id: token.id, key: await revealApiKey(user.client, token.id) };
  };
  /** One chat call of 3 output tokens; answers the status and what the token was charged for it. */
  const chargeOf = async (user: SignedInUser, token: { id: number; key: string }, model: string) => {
    const tokenUsed = async () =>
      (await user.client.management.GET("/api/token/{id}", { params: { path: { id: token.id } } })).data!.data
        .used_quota;
    const before = await tokenUsed();
    const sdk = new OpenAI({ apiKey: token.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const status = await sdk.chat.completions
      .create({ model, messages: [{ role: "user", content: "hello world" }], max_tokens: 3 })
      .then(
        () => 200,
        (error: unknown) => (error instanceof OpenAI.APIError ? (error.status ?? 0) : Promise.reject(error)),
      );
    return { status, charged: (await tokenUsed()) - before };
  };
  const auditActions = async (prefix: string) => {
    const listed = await gateway.client.management.GET("/api/audit", { params: { query: { size: 100 } } });
    return listed
      .data!.data.items.filter((entry) => entry.action.startsWith(prefix))
      .map((entry) => ({ action: entry.action, target: entry.target, before: entry.before, after: entry.after }));
  };

  it("lists the configuration file's prices and groups as stored data, read-only through the API", async () => {
    const prices = await gateway.client.management.GET("/api/pricing");
    expect(prices.data!.data).toMatchObject({
      items: [{ model: "model-x", source: "config", price: { input: 0, output: 100_000 } }],
      allow_unpriced: false,
    });
    const groups = await gateway.client.management.GET("/api/group");
    expect(
      groups.data!.data.items.map(({ name, ratio, source, selectable }) => ({ name, ratio, source, selectable })),
    ).toEqual([
      { name: "default", ratio: 1, source: "config", selectable: true },
      { name: "vip", ratio: 2, source: "config", selectable: false },
    ]);
    expect(groups.data!.data.auto_groups).toEqual(["default", "vip"]);

    const changed = await gateway.client.management.PUT("/api/pricing/{model}", {
      params: { path: { model: "model-x" } },
      body: { output: 1 },
    });
    expect(changed.response.status).toBe(403);
    expect(changed.error).toMatchObject({
      success: false,
      message: "The price of model-x comes from the configuration file and cannot be changed through the API.",
    });
    const groupChange = await gateway.client.management.PUT("/api/group/{name}", {
      params: { path: { name: "vip" } },
      body: { ratio: 0 },
    });
    expect(groupChange.response.status).toBe(403);
  });

  it("refuses price and group changes to ordinary users", async () => {
    const put = await alice.client.management.PUT("/api/pricing/{model}", {
      params: { path: { model: "model-new" } },
      body: { output: 0 },
    });
    expect([put.response.status, put.error?.message]).toEqual([403, "This operation requires an administrator."]);
    const create = await alice.client.management.POST("/api/group", { body: { name: "mine", ratio: 0 } });
    expect(create.response.status).toBe(403);
    expect((await alice.client.management.GET("/api/pricing")).response.status).toBe(403);
    expect((await alice.client.management.GET("/api/group")).response.status).toBe(403);
  });

  it("bills an administrator's new price from the next request, a changed one too, and refuses the model once it is deleted", async () => {
    const token = await keyFor(alice);
    expect((await chargeOf(alice, token, "model-new")).status).toBe(403);

    const created = await gateway.client.management.PUT("/api/pricing/{model}", {
      params: { path: { model: "model-new" } },
      body: { input: 0, output: 100_000 },
    });
    expect(created.data!.data).toMatchObject({
      model: "model-new",
      source: "api",
      price: { input: 0, output: 100_000 },
    });
    expect(await chargeOf(alice, token, "model-new")).toEqual({ status: 200, charged: 150_000 });

    await gateway.client.management.PUT("/api/pricing/{model}", {
      params: { path: { model: "model-new" } },
      body: { input: 0, output: 200_000 },
    });
    expect(await chargeOf(alice, token, "model-new")).toEqual({ status: 200, charged: 300_000 });

    const deleted = await gateway.client.management.DELETE("/api/pricing/{model}", {
      params: { path: { model: "model-new" } },
    });
    expect(deleted.data).toEqual({ success: true, message: "" });
    expect(await chargeOf(alice, token, "model-new")).toEqual({ status: 403, charged: 0 });
    const again = await gateway.client.management.DELETE("/api/pricing/{model}", {
      params: { path: { model: "model-new" } },
    });
    expect([again.response.status, again.error?.message]).toEqual([404, "Model model-new has no price."]);

    expect(await auditActions("price.")).toEqual([
      {
        action: "price.delete",
        target: "price:model-new",
        before: expect.objectContaining({ price: { input: 0, output: 200_000 } }),
        after: null,
      },
      {
        action: "price.update",
        target: "price:model-new",
        before: expect.objectContaining({ price: { input: 0, output: 100_000 } }),
        after: expect.objectContaining({ price: { input: 0, output: 200_000 } }),
      },
      {
        action: "price.create",
        target: "price:model-new",
        before: null,
        after: expect.objectContaining({ model: "model-new", source: "api" }),
      },
    ]);
  });

  it("routes and bills a group an administrator creates, applies its new ratio at once, and refuses its tokens once it is deleted", async () => {
    const refused = await alice.client.management.POST("/api/token/", { body: { name: "team", group: "team" } });
    expect(refused.response.status).toBe(400);

    const created = await gateway.client.management.POST("/api/group", {
      body: { name: "team", ratio: 2, description: "The team's channels", selectable: true },
    });
    expect(created.data!.data).toMatchObject({ name: "team", ratio: 2, selectable: true, source: "api" });
    const groups = (await alice.client.management.GET("/api/user/self/groups")).data!.data;
    expect(groups.items.map((group) => [group.name, group.ratio])).toEqual([
      ["default", 1],
      ["team", 2],
    ]);
    expect(groups.auto_groups).toEqual(["default", "team"]);

    const token = await keyFor(alice, { group: "team" });
    expect(await chargeOf(alice, token, "model-x")).toEqual({ status: 200, charged: 300_000 });
    const updated = await gateway.client.management.PUT("/api/group/{name}", {
      params: { path: { name: "team" } },
      body: { ratio: 3 },
    });
    expect(updated.data!.data).toMatchObject({ name: "team", ratio: 3, description: "The team's channels" });
    expect(await chargeOf(alice, token, "model-x")).toEqual({ status: 200, charged: 450_000 });

    await gateway.client.management.DELETE("/api/group/{name}", { params: { path: { name: "team" } } });
    const afterDelete = await chargeOf(alice, token, "model-x");
    expect(afterDelete).toEqual({ status: 403, charged: 0 });

    const reserved = await gateway.client.management.POST("/api/group", { body: { name: "auto", ratio: 1 } });
    expect(reserved.response.status).toBe(400);
    const taken = await gateway.client.management.POST("/api/group", { body: { name: "vip", ratio: 1 } });
    expect([taken.response.status, taken.error?.message]).toEqual([400, 'A group named "vip" already exists.']);
    expect((await auditActions("group.")).map((entry) => entry.action)).toEqual([
      "group.delete",
      "group.update",
      "group.create",
    ]);
  });

  it("shows a user the models their groups reach, with each group's ratio applied", async () => {
    await gateway.client.management.POST("/api/group", { body: { name: "team", ratio: 1.5, selectable: true } });
    const prices = await alice.client.management.GET("/api/pricing/self");
    expect(prices.data!.data.items).toEqual([
      {
        model: "model-new",
        priced: false,
        groups: [
          { group: "default", ratio: 1, price: {} },
          { group: "team", ratio: 1.5, price: {} },
        ],
      },
      {
        model: "model-x",
        priced: true,
        groups: [
          { group: "default", ratio: 1, price: { input: 0, output: 100_000 } },
          { group: "team", ratio: 1.5, price: { input: 0, output: 150_000 } },
        ],
      },
    ]);
  });

  it("keeps an administrator's prices and groups over a restart, and drops the file's entries the file no longer has", async () => {
    await gateway.client.management.PUT("/api/pricing/{model}", {
      params: { path: { model: "model-kept" } },
      body: { per_call: 0.01 },
    });
    const restarted = await startTestGateway({
      database,
      configFile: { ...configFile(upstream.url), groups: { default: { ratio: 1 } } },
    });
    try {
      const prices = (await restarted.client.management.GET("/api/pricing")).data!.data.items;
      expect(prices.map((entry) => [entry.model, entry.source])).toEqual([
        ["model-kept", "api"],
        ["model-x", "config"],
      ]);
      const groups = (await restarted.client.management.GET("/api/group")).data!.data.items;
      expect(groups.map((group) => [group.name, group.source])).toEqual([
        ["default", "config"],
        ["team", "api"],
      ]);
    } finally {
      await restarted.close();
    }
  });
});
