import { sql } from "kysely";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

// Wallets through the official SDK: the user's wallet is the money, a token only a cap on it.
const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });

// 3 output tokens (the fake truncates to max_tokens) at 100,000 USD per 1M tokens = $0.30 = 150,000 units, and the
// worst case of max_tokens 3 is the same: a request costs exactly what it holds.
const requestCost = 150_000;
const oneDollar = 500_000;

describe.each(testDatabases)("wallets on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          { name: "main", type: "openai", base_url: upstream.url, key: "k1", models: ["model-x"] },
          { name: "vip", type: "openai", base_url: upstream.url, key: "k2", models: ["model-x"], groups: ["vip"] },
        ],
        groups: { default: { ratio: 1 }, vip: { ratio: 1, description: "Faster channels" } },
        pricing: { "model-x": { input: 0, output: 100_000 } },
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  const sdkFor = (key: string) => new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const keyFor = async (user: SignedInUser, body: Parameters<typeof createTokenForTest>[1]) => {
    const token = await createTokenForTest(user.client, body);
    return { id: token.id, key: await revealApiKey(user.client, token.id) };
  };
  const selfOf = async (user: SignedInUser) => (await user.client.management.GET("/api/user/self")).data!.data;
  const tokenOf = async (user: SignedInUser, id: number) =>
    (await user.client.management.GET("/api/token/{id}", { params: { path: { id } } })).data!.data;
  const chat = (sdk: OpenAI, stream: boolean) =>
    stream
      ? sdk.chat.completions
          .create({
            model: "model-x",
            messages: [{ role: "user", content: "hello world" }],
            max_tokens: 3,
            stream: true,
            stream_options: { include_usage: true },
          })
          .then(async (chunks) => {
            for await (const _chunk of chunks);
            return 200;
          })
      : sdk.chat.completions
          .create({ model: "model-x", messages: [{ role: "user", content: "hello world" }], max_tokens: 3 })
          .then(() => 200);
  const statusOf = (call: Promise<number>) =>
    call.catch((error: unknown) => {
      if (error instanceof OpenAI.APIError) return { status: error.status, message: error.message };
      throw error;
    });

  it("lets alice with a $1 wallet and an unlimited token spend until refused, never more than the wallet held", async () => {
    const alice = await createSignedInUser(gateway, { wallet: oneDollar });
    const { id, key } = await keyFor(alice, { unlimited_quota: true });
    const sdk = sdkFor(key);
    const refusals: Array<{ status: number | undefined; message: string }> = [];
    let served = 0;
    for (let round = 0; round < 10 && refusals.length === 0; round += 1) {
      const outcomes = await Promise.all(Array.from({ length: 4 }, (_, index) => statusOf(chat(sdk, index % 2 === 1))));
      served += outcomes.filter((outcome) => outcome === 200).length;
      refusals.push(...outcomes.filter((outcome): outcome is { status: number; message: string } => outcome !== 200));
    }
    expect(served).toBe(3);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(402);
      expect(refusal.message).toContain("your account's wallet has 50000 units left");
    }
    const self = await selfOf(alice);
    expect(self).toMatchObject({ quota: oneDollar - 3 * requestCost, used_quota: 3 * requestCost });
    expect(self.quota + self.used_quota).toBe(oneDollar);
    expect(await tokenOf(alice, id)).toMatchObject({ used_quota: 3 * requestCost, unlimited_quota: true });
  });

  it("lets exactly K of N concurrent requests through a wallet for K, settling wallet and token exactly", async () => {
    const bob = await createSignedInUser(gateway, { wallet: 4 * requestCost });
    // The token's cap is larger than the wallet: the wallet is what runs out.
    const { id, key } = await keyFor(bob, { remain_quota: 10 * requestCost });
    const sdk = sdkFor(key);
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, index) => statusOf(chat(sdk, index % 4 === 0))));
    expect(outcomes.filter((outcome) => outcome === 200)).toHaveLength(4);
    expect(
      outcomes.filter((outcome) => outcome !== 200).every((outcome) => (outcome as { status: number }).status === 402),
    ).toBe(true);
    expect(await selfOf(bob)).toMatchObject({ quota: 0, used_quota: 4 * requestCost });
    expect(await tokenOf(bob, id)).toMatchObject({ remain_quota: 6 * requestCost, used_quota: 4 * requestCost });
  });

  it("refuses by the token's cap when the token is shorter than the wallet, saying so", async () => {
    const carol = await createSignedInUser(gateway, { wallet: oneDollar });
    const { key } = await keyFor(carol, { remain_quota: requestCost - 1 });
    const refusal = await statusOf(chat(sdkFor(key), false));
    expect(refusal).toMatchObject({ status: 402 });
    expect((refusal as { message: string }).message).toContain(`the token has ${requestCost - 1} units left`);
    expect(await selfOf(carol)).toMatchObject({ quota: oneDollar, used_quota: 0 });
  });

  it("tops a wallet up and down through the admin API, keeps every change in the user's top-ups, and never goes below zero", async () => {
    const dave = await createSignedInUser(gateway, { wallet: 0 });
    const topUp = await gateway.client.management.POST("/api/user/{id}/quota", {
      params: { path: { id: dave.user.id } },
      body: { delta: 700, reason: "first budget" },
    });
    expect(topUp.data?.data).toMatchObject({ delta: 700, balance_after: 700, source: "admin", reason: "first budget" });
    const down = await gateway.client.management.POST("/api/user/{id}/quota", {
      params: { path: { id: dave.user.id } },
      body: { delta: -200, reason: "correction" },
    });
    expect(down.data?.data).toMatchObject({ delta: -200, balance_after: 500 });
    const tooMuch = await gateway.client.management.POST("/api/user/{id}/quota", {
      params: { path: { id: dave.user.id } },
      body: { delta: -501, reason: "too much" },
    });
    expect(tooMuch.response.status).toBe(400);
    expect(tooMuch.error?.message).toContain("the wallet holds 500 units");
    const byUser = await dave.client.management.POST("/api/user/{id}/quota", {
      params: { path: { id: dave.user.id } },
      body: { delta: 1_000_000, reason: "myself" },
    });
    expect(byUser.response.status).toBe(403);
    const missing = await gateway.client.management.POST("/api/user/{id}/quota", {
      params: { path: { id: 2_000_000_000 } },
      body: { delta: 5, reason: "nobody" },
    });
    expect(missing.response.status).toBe(404);

    const history = await dave.client.management.GET("/api/user/self/topups", { params: { query: {} } });
    expect(history.data?.data).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(history.data?.data.items.map((change) => [change.delta, change.balance_after, change.reason])).toEqual([
      [-200, 500, "correction"],
      [700, 700, "first budget"],
    ]);
    expect(await selfOf(dave)).toMatchObject({ quota: 500, quota_unlimited: false });
  });

  it("credits a redemption code once, and refuses it used, expired or unknown", async () => {
    const erin = await createSignedInUser(gateway, { wallet: 0 });
    const created = await gateway.client.management.POST("/api/redemption/", {
      body: { name: "spring promotion", quota: 250_000, count: 3 },
    });
    const codes = created.data!.data.codes;
    expect(codes).toHaveLength(3);
    expect(new Set(codes).size).toBe(3);
    const redeemed = await erin.client.management.POST("/api/user/self/redeem", { body: { code: codes[0]! } });
    expect(redeemed.data?.data).toMatchObject({
      delta: 250_000,
      balance_after: 250_000,
      source: "redemption",
      reason: "spring promotion",
    });
    const again = await erin.client.management.POST("/api/user/self/redeem", { body: { code: codes[0]! } });
    expect(again.response.status).toBe(400);
    expect(again.error?.message).toContain("not valid, or it was used already");
    const unknown = await erin.client.management.POST("/api/user/self/redeem", { body: { code: "rc-nothing" } });
    expect(unknown.response.status).toBe(400);
    const expired = await gateway.client.management.POST("/api/redemption/", {
      body: { name: "old", quota: 5, expires_time: 1 },
    });
    const late = await erin.client.management.POST("/api/user/self/redeem", {
      body: { code: expired.data!.data.codes[0]! },
    });
    expect(late.response.status).toBe(400);
    expect(await selfOf(erin)).toMatchObject({ quota: 250_000 });
    const byUser = await erin.client.management.POST("/api/redemption/", { body: { name: "mine", quota: 5 } });
    expect(byUser.response.status).toBe(403);
  });

  it("lets a user pick only the groups they may use, and refuses a key whose group was taken away with a 403", async () => {
    const frank = await createSignedInUser(gateway);
    const groups = await frank.client.management.GET("/api/user/self/groups");
    expect(groups.data?.data).toEqual({
      items: [{ name: "default", ratio: 1, description: "", is_default: true }],
      auto_groups: ["default"],
    });
    const refused = await frank.client.management.POST("/api/token/", { body: { name: "vip-key", group: "vip" } });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.message).toBe(
      'group "vip" is not one you may use; use "" (your default group, default), "auto" or one of: default.',
    );
    const plain = await createTokenForTest(frank.client, {});
    const renamed = await frank.client.management.PUT("/api/token/", { body: { id: plain.id, group: "made-up" } });
    expect(renamed.response.status).toBe(400);

    const allowed = await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: frank.user.id } },
      body: { allowed_groups: ["vip"] },
    });
    expect(allowed.data?.data.allowed_groups).toEqual(["vip"]);
    expect((await frank.client.management.GET("/api/user/self/groups")).data?.data.items).toEqual([
      { name: "default", ratio: 1, description: "", is_default: true },
      { name: "vip", ratio: 1, description: "Faster channels", is_default: false },
    ]);
    const { key } = await keyFor(frank, { group: "vip", unlimited_quota: true });
    expect(await statusOf(chat(sdkFor(key), false))).toBe(200);

    await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: frank.user.id } },
      body: { allowed_groups: [] },
    });
    const takenAway = await statusOf(chat(sdkFor(key), false));
    expect(takenAway).toMatchObject({ status: 403 });
    expect((takenAway as { message: string }).message).toContain('group "vip" is no longer one its owner may use');
  });
  it("lists and searches users for administrators, with their wallets", async () => {
    const ivy = await createSignedInUser(gateway, { wallet: 42 });
    const found = await gateway.client.management.GET("/api/user/", {
      params: { query: { keyword: ivy.username.slice(2).toUpperCase() } },
    });
    expect(found.data?.data).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(found.data?.data.items[0]).toMatchObject({ id: ivy.user.id, quota: 42, quota_unlimited: false });
    const wildcard = await gateway.client.management.GET("/api/user/", { params: { query: { keyword: "%" } } });
    expect(wildcard.data?.data.total).toBe(0);
    const all = await gateway.client.management.GET("/api/user/", { params: { query: { size: 2 } } });
    expect(all.data?.data.items).toHaveLength(2);
    expect(all.data!.data.items[0]!.id).toBe(ivy.user.id);
    expect((await ivy.client.management.GET("/api/user/", { params: { query: {} } })).response.status).toBe(403);
  });

  it("writes an audit row for every administrative change, readable by administrators only, without secrets", async () => {
    const root = (await gateway.client.management.GET("/api/user/self")).data!.data;
    const before = (await gateway.client.management.GET("/api/audit", { params: { query: { size: 100 } } })).data!.data
      .total;
    const henry = await createSignedInUser(gateway, { wallet: 300 });
    const codes = await gateway.client.management.POST("/api/redemption/", { body: { name: "audited", quota: 9 } });
    const channel = await gateway.client.management.POST("/api/channel/", {
      body: { name: "audited", type: "openai", base_url: upstream.url, key: "audited-upstream-secret", models: ["m"] },
    });
    const channelId = channel.data!.data.id;
    await gateway.client.management.PUT("/api/channel/", { body: { id: channelId, weight: 3 } });
    await gateway.client.management.DELETE("/api/channel/{id}", { params: { path: { id: channelId } } });
    await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: henry.user.id } },
      body: { quota_unlimited: true },
    });

    const page = (await gateway.client.management.GET("/api/audit", { params: { query: { size: 100 } } })).data!.data;
    expect(page.total - before).toBe(7);
    const mine = page.items.slice(0, 7).reverse();
    expect(mine.map((entry) => [entry.actor_user_id, entry.action, entry.target])).toEqual([
      [root.id, "user.create", `user:${henry.user.id}`],
      [root.id, "wallet.adjust", `user:${henry.user.id}`],
      [root.id, "redemption.create", "redemption:audited"],
      [root.id, "channel.create", `channel:${channelId}`],
      [root.id, "channel.update", `channel:${channelId}`],
      [root.id, "channel.delete", `channel:${channelId}`],
      [root.id, "user.update", `user:${henry.user.id}`],
    ]);
    expect(mine[1]).toMatchObject({ before: { quota: 0 }, after: { quota: 300, delta: 300, reason: "test wallet" } });
    expect(mine[4]).toMatchObject({ before: { weight: 1 }, after: { weight: 3 } });
    expect(mine[6]).toMatchObject({ before: { quota_unlimited: false }, after: { quota_unlimited: true } });
    const written = JSON.stringify(page);
    expect(written).not.toContain("audited-upstream-secret");
    expect(written).not.toContain(codes.data!.data.codes[0]!);
    expect(written).not.toContain(henry.password);
    const filtered = await gateway.client.management.GET("/api/audit", {
      params: { query: { action: "wallet.adjust", actor_user_id: root.id } },
    });
    expect(filtered.data!.data.items.every((entry) => entry.action === "wallet.adjust")).toBe(true);
    expect((await henry.client.management.GET("/api/audit", { params: { query: {} } })).response.status).toBe(403);
  });
});

describe("redemption across two instances on one PostgreSQL", () => {
  const shared = testDatabases.find((testDatabase) => testDatabase.name === "postgres")!.database;
  let secondPool: GatewayDatabase;
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(shared.db)).rows[0]!
      .schema;
    secondPool = await openDatabase(process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL, {
      postgresSchema: schema,
      postgresPoolSize: 20,
    });
    first = await startTestGateway({ database: shared });
    second = await startTestGateway({ database: secondPool });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await secondPool.close();
  });

  it("credits one code once when 50 requests on both instances redeem it at the same time", async () => {
    // The second start re-keyed root: root acts through the second instance.
    const grace = await createSignedInUser(second, { wallet: 0 });
    const created = await second.client.management.POST("/api/redemption/", { body: { name: "once", quota: 12_345 } });
    const code = created.data!.data.codes[0]!;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const instance = index % 2 === 0 ? first : second;
        const answer = await instance
          .clientFor({ accessToken: grace.accessToken })
          .management.POST("/api/user/self/redeem", { body: { code } });
        return answer.response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    expect((await grace.client.management.GET("/api/user/self")).data!.data.quota).toBe(12_345);
    const history = await grace.client.management.GET("/api/user/self/topups", { params: { query: {} } });
    expect(history.data!.data.total).toBe(1);
  });
});
