import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../generated/types/management.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

type Token = components["schemas"]["Token"];

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("token search on $name", ({ database }) => {
  let gateway: TestGateway;
  let alice: SignedInUser;
  let bob: SignedInUser;
  // Two of alice's tokens with their full keys (without sk-), and one of bob's.
  let production: Token;
  let staging: Token;
  let productionKey: string;
  let stagingKey: string;
  let bobKey: string;

  const search = (user: SignedInUser, query: { keyword?: string; token?: string; p?: number; size?: number }) =>
    user.client.management.GET("/api/token/search", { params: { query } });
  const foundIds = async (query: { keyword?: string; token?: string }) => {
    const result = await search(alice, query);
    expect(result.response.status).toBe(200);
    return result.data!.data.items.map((token) => token.id).sort((left, right) => left - right);
  };

  beforeAll(async () => {
    gateway = await startTestGateway({
      database,
      configFile: { key_reveal_rate_limit: { points: 1000, duration_seconds: 60 } },
    });
    alice = await createSignedInUser(gateway);
    bob = await createSignedInUser(gateway);
    production = await createTokenForTest(alice.client, { name: "Production API" });
    staging = await createTokenForTest(alice.client, { name: "staging-api" });
    productionKey = (await revealApiKey(alice.client, production.id)).slice(3);
    stagingKey = (await revealApiKey(alice.client, staging.id)).slice(3);
    const bobToken = await createTokenForTest(bob.client, { name: "Production API" });
    bobKey = (await revealApiKey(bob.client, bobToken.id)).slice(3);
  });
  afterAll(async () => gateway.close());

  it("matches part of the name with keyword, ignoring case, and only among the user's own tokens", async () => {
    expect(await foundIds({ keyword: "duction" })).toEqual([production.id]);
    expect(await foundIds({ keyword: "API" })).toEqual([production.id, staging.id].sort((left, right) => left - right));
    expect(await foundIds({ keyword: "nothing-like-this" })).toEqual([]);
  });

  it("answers the page object with masked keys, p=1 and size=20 by default", async () => {
    const result = await search(alice, { keyword: "staging" });
    expect(result.data).toEqual({
      success: true,
      message: "",
      data: { items: [staging], total: 1, page: 1, page_size: 20 },
    });
    expect(result.data!.data.items[0]!.key).toMatch(/^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
    expect(JSON.stringify(result.data)).not.toContain(stagingKey);
  });

  it("matches part of the key, with and without the sk- prefix", async () => {
    const middle = productionKey.slice(10, 22);
    expect(await foundIds({ token: middle })).toEqual([production.id]);
    expect(await foundIds({ token: `sk-${productionKey.slice(0, 12)}` })).toEqual([production.id]);
    expect(await foundIds({ token: productionKey.slice(0, 12) })).toEqual([production.id]);
    expect(await foundIds({ token: `sk-${productionKey}` })).toEqual([production.id]);
    // bob's key is not alice's to find.
    expect(await foundIds({ token: bobKey.slice(5, 20) })).toEqual([]);
  });

  it("treats % as a wildcard for any run of characters, once and twice", async () => {
    expect(await foundIds({ token: `${stagingKey.slice(0, 4)}%${stagingKey.slice(-4)}` })).toEqual([staging.id]);
    expect(
      await foundIds({ token: `sk-${stagingKey.slice(0, 3)}%${stagingKey.slice(20, 24)}%${stagingKey.slice(-3)}` }),
    ).toEqual([staging.id]);
    // Pieces must appear in order: the end of the key before its start matches nothing.
    expect(await foundIds({ token: `${stagingKey.slice(-6)}%${stagingKey.slice(0, 6)}` })).toEqual([]);
  });

  it("refuses a third % wildcard with a 400 that says so", async () => {
    const refused = await search(alice, { token: `${stagingKey.slice(0, 2)}%a%b%${stagingKey.slice(-2)}` });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.success).toBe(false);
    expect(refused.error?.message).toMatch(/^Token search failed: /);
    expect(refused.error?.message).toContain("at most 2");
  });

  it("combines keyword and token: both must match", async () => {
    expect(await foundIds({ keyword: "staging", token: stagingKey.slice(8, 16) })).toEqual([staging.id]);
    expect(await foundIds({ keyword: "Production", token: stagingKey.slice(8, 16) })).toEqual([]);
  });

  it("lists every own token without filters", async () => {
    expect(await foundIds({})).toEqual([production.id, staging.id].sort((left, right) => left - right));
  });

  it("pages results newest first with p and size; size may be 100 but not 101", async () => {
    const carol = await createSignedInUser(gateway);
    await carol.client.management.POST("/api/token/", { body: { name: "pager", count: 5 } });
    const page = await search(carol, { keyword: "pager", p: 2, size: 2 });
    expect(page.data?.data).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(page.data?.data.items.map((token) => token.name)).toEqual(["pager-3", "pager-2"]);
    const largest = await search(carol, { keyword: "pager", size: 100 });
    expect(largest.data?.data).toMatchObject({ total: 5, page: 1, page_size: 100 });
    const tooLarge = await search(carol, { keyword: "pager", size: 101 });
    expect(tooLarge.response.status).toBe(400);
    expect(tooLarge.error?.success).toBe(false);
    expect(tooLarge.error?.message).toMatch(/^Parameter error: /);
  });
});
