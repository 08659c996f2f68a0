import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { keySearchChunkSize } from "../../src/tokens/search-user-tokens.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { revealApiKey } from "../support/reveal-api-key.js";

// One user cannot create tokens without end (each key search decrypts all of a user's keys), and the search still
// finds keys wherever they sit among many.
const testDatabases = await openTestDatabases();
const limit = 3 * keySearchChunkSize + 20;

describe.each(testDatabases)("tokens per user and key search on $name", ({ database }) => {
  let gateway: TestGateway;
  let alice: SignedInUser;
  let bob: SignedInUser;
  const create = (user: SignedInUser, body: { name: string; count?: number }) =>
    user.client.management.POST("/api/token/", { body: { ...body, remain_quota: 0 } });
  const countOf = async (user: SignedInUser) =>
    (await user.client.management.GET("/api/token/", { params: { query: { p: 1, size: 1 } } })).data!.data.total;

  beforeAll(async () => {
    gateway = await startTestGateway({ database, configFile: { token_limit_per_user: limit } });
    alice = await createSignedInUser(gateway);
    bob = await createSignedInUser(gateway);
  });
  afterAll(async () => gateway.close());

  it("refuses a token past the limit with a 400 in the /api envelope", async () => {
    for (let batch = 0; batch < 3; batch += 1)
      expect((await create(alice, { name: `b${batch}`, count: 100 })).response.status).toBe(200);
    expect((await create(alice, { name: "last", count: 20 })).response.status).toBe(200);
    expect(await countOf(alice)).toBe(limit);

    const one = await create(alice, { name: "one-more" });
    expect(one.response.status).toBe(400);
    expect(one.error).toEqual({
      success: false,
      message: `A user may hold at most ${limit} tokens; you hold ${limit} and asked for 1 more. Delete tokens you no longer use first.`,
    });
    expect(await countOf(alice)).toBe(limit);
    // Another user has their own allowance.
    expect((await create(bob, { name: "bob", count: 5 })).response.status).toBe(200);
  });

  it("refuses a whole batch that would pass the limit", async () => {
    const before = await countOf(bob);
    const batch = await create(bob, { name: "many", count: 100 });
    expect(batch.response.status).toBe(200);
    for (let round = 0; round < 2; round += 1) await create(bob, { name: `r${round}`, count: 100 });
    const held = await countOf(bob);
    expect(held).toBe(before + 300);
    const refused = await create(bob, { name: "over", count: 100 });
    expect(refused.response.status).toBe(400);
    expect(await countOf(bob)).toBe(held);
  });

  it("finds keys in every chunk of the search, and only the user's own", async () => {
    const listed = await alice.client.management.GET("/api/token/", { params: { query: { p: 1, size: 100 } } });
    const newest = listed.data!.data.items[0]!;
    // Newest first: the oldest tokens are in the last chunk the search decrypts.
    const oldestPage = await alice.client.management.GET("/api/token/", {
      params: { query: { p: Math.ceil(limit / 100), size: 100 } },
    });
    const oldest = oldestPage.data!.data.items.at(-1)!;
    for (const token of [newest, oldest]) {
      const key = (await revealApiKey(alice.client, token.id)).slice(3);
      const found = await alice.client.management.GET("/api/token/search", {
        params: { query: { token: key.slice(10, 30) } },
      });
      expect(found.response.status).toBe(200);
      expect(found.data!.data.items.map((item) => item.id)).toEqual([token.id]);
      const notBob = await bob.client.management.GET("/api/token/search", {
        params: { query: { token: key.slice(10, 30) } },
      });
      expect(notBob.data!.data.total).toBe(0);
    }
  });

  it("lets concurrent creations reach the limit exactly, never past it", async () => {
    const carol = await createSignedInUser(gateway);
    const batch = 40;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => create(carol, { name: `c${index}`, count: batch })),
    );
    const created = answers.filter((answer) => answer.response.status === 200).length;
    expect(created).toBe(Math.floor(limit / batch));
    expect(answers.every((answer) => [200, 400].includes(answer.response.status))).toBe(true);
    expect(await countOf(carol)).toBe(created * batch);
  });
});
