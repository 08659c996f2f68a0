import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { UsageLogEntry } from "../../src/billing/billing-service.js";
import { createBillingService } from "../../src/billing/create-billing-service.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("GET /api/log/self on $name", ({ database }) => {
  let gateway: TestGateway;
  let owner: SignedInUser;
  let stranger: SignedInUser;
  let firstTokenId: number;
  let secondTokenId: number;

  beforeAll(async () => {
    gateway = await startTestGateway({ database });
    owner = await createSignedInUser(gateway);
    stranger = await createSignedInUser(gateway);
    firstTokenId = (await createTokenForTest(owner.client, { name: "ci-bot" })).id;
    secondTokenId = (await createTokenForTest(owner.client, { name: "batch" })).id;
    const strangerTokenId = (await createTokenForTest(stranger.client)).id;

    // Rows go in the way the relay writes them: through the billing service's batched recordUsage.
    const clock = { now: 1_767_300_000 };
    const billing = createBillingService(
      { ...gateway.gateway.context, now: () => clock.now },
      { flushIntervalMs: 60_000 },
    );
    const entry = (
      userId: number,
      tokenId: number,
      requestId: string,
      overrides: Partial<UsageLogEntry> = {},
    ): UsageLogEntry => ({
      userId,
      tokenId,
      tokenName: tokenId === secondTokenId ? "batch" : "ci-bot",
      model: "gmx-2.5-flash",
      channelId: 3,
      requestId,
      isStream: true,
      usage: {
        promptTokens: 1200,
        completionTokens: 350,
        cachedTokens: 1024,
        cacheWriteTokens: 64,
        reasoningTokens: 120,
      },
      quota: 262,
      latencyMs: 2310,
      status: "success",
      group: "default",
      ...overrides,
    });
    const ownerId = owner.user.id;
    const rows: Array<[number, UsageLogEntry]> = [
      [1_767_300_000, entry(ownerId, firstTokenId, "r1")],
      [1_767_300_100, entry(ownerId, secondTokenId, "r2", { model: "gmx-9-ultra" })],
      [
        1_767_300_200,
        entry(ownerId, firstTokenId, "r3", {
          status: "error",
          errorMessage: "no available channel",
          channelId: null,
          quota: 0,
        }),
      ],
      [1_767_300_300, entry(ownerId, secondTokenId, "r4")],
      [1_767_300_150, entry(stranger.user.id, strangerTokenId, "stranger-row")],
    ];
    for (const [time, row] of rows) {
      clock.now = time;
      billing.recordUsage(row);
    }
    await billing.flush();
  });
  afterAll(async () => gateway.close());

  const requestIds = (items: Array<{ request_id: string }> | undefined) => items?.map((item) => item.request_id);

  it("returns the signed-in user's rows, newest first, in the spec's shape", async () => {
    const response = await owner.client.management.GET("/api/log/self", { params: { query: {} } });
    expect(response.response.status).toBe(200);
    const page = response.data!.data;
    expect(page).toMatchObject({ total: 4, page: 1, page_size: 20 });
    expect(requestIds(page.items)).toEqual(["r4", "r3", "r2", "r1"]);
    expect(page.items[3]).toEqual({
      id: expect.any(Number),
      created_time: 1_767_300_000,
      token_id: firstTokenId,
      token_name: "ci-bot",
      model: "gmx-2.5-flash",
      channel_id: 3,
      group: "default",
      request_id: "r1",
      is_stream: true,
      prompt_tokens: 1200,
      completion_tokens: 350,
      cached_tokens: 1024,
      cache_write_tokens: 64,
      reasoning_tokens: 120,
      quota: 262,
      latency_ms: 2310,
      status: "success",
    });
    expect(page.items[1]).toMatchObject({
      status: "error",
      error_message: "no available channel",
      channel_id: null,
      quota: 0,
    });
  });

  it("never shows another user's rows, even when asked for that user's token", async () => {
    const strangerView = await stranger.client.management.GET("/api/log/self", { params: { query: {} } });
    expect(requestIds(strangerView.data!.data.items)).toEqual(["stranger-row"]);
    const probing = await stranger.client.management.GET("/api/log/self", {
      params: { query: { token_id: firstTokenId } },
    });
    expect(probing.data!.data).toMatchObject({ items: [], total: 0 });
  });

  it("filters by token, model and time range (end_time exclusive) and pages", async () => {
    const query = async (filters: Record<string, number | string>) =>
      (await owner.client.management.GET("/api/log/self", { params: { query: filters } })).data!.data;
    expect(requestIds((await query({ token_id: secondTokenId })).items)).toEqual(["r4", "r2"]);
    expect(requestIds((await query({ model: "gmx-9-ultra" })).items)).toEqual(["r2"]);
    expect(requestIds((await query({ start_time: 1_767_300_100, end_time: 1_767_300_300 })).items)).toEqual([
      "r3",
      "r2",
    ]);
    expect(requestIds((await query({ start_time: 1_767_300_100, end_time: 1_767_300_301 })).items)).toEqual([
      "r4",
      "r3",
      "r2",
    ]);
    const second = await query({ p: 2, size: 3 });
    expect(second).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(requestIds(second.items)).toEqual(["r1"]);
    expect((await query({ p: 5, size: 3 })).items).toEqual([]);
  });

  it("rejects a bad filter and an anonymous caller", async () => {
    const bad = await owner.client.management.GET("/api/log/self", { params: { query: { token_id: 0 } } });
    expect(bad.response.status).toBe(400);
    const anonymous = await gateway.clientFor({}).management.GET("/api/log/self", { params: { query: {} } });
    expect(anonymous.response.status).toBe(401);
  });
});

describe.each(testDatabases)("a request is in GET /api/log/self when its answer arrives, on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let owner: SignedInUser;
  let key: string;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [{ name: "logged", type: "openai", base_url: upstream.url, key: "k", models: ["model-logged"] }],
        pricing: { "model-logged": { input: 2, output: 4 } },
      },
    });
    owner = await createSignedInUser(gateway);
    const tokenId = (await createTokenForTest(owner.client, { name: "logged", remain_quota: 1_000_000 })).id;
    key = await revealApiKey(owner.client, tokenId);
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const loggedRequestIds = async () =>
    (await owner.client.management.GET("/api/log/self", { params: { query: { size: 100 } } })).data!.data.items.map(
      (item) => item.request_id,
    );
  const chat = (stream: boolean) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "model-logged", stream, messages: [{ role: "user", content: "hello" }] }),
    });

  it("has the row of every answer, JSON or stream, read right after it", async () => {
    for (const stream of [false, true, false, true, false]) {
      const answer = await chat(stream);
      expect(answer.status).toBe(200);
      const body = await answer.text();
      if (stream) expect(body).toContain("data: [DONE]");
      expect(await loggedRequestIds()).toContain(answer.headers.get("x-request-id"));
    }
  });
});
