import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { tokenMessages } from "../../src/tokens/token-messages.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

const testDatabases = await openTestDatabases();
const maskedKey = /^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/;
const startTime = 1_800_000_000;

describe.each(testDatabases)("token create, list, get and delete on $name", ({ database }) => {
  let gateway: TestGateway;
  let alice: SignedInUser;
  let bob: SignedInUser;
  beforeAll(async () => {
    gateway = await startTestGateway({
      database,
      now: () => startTime,
      configFile: { key_reveal_rate_limit: { points: 1000, duration_seconds: 60 } },
    });
    alice = await createSignedInUser(gateway);
    bob = await createSignedInUser(gateway);
  });
  afterAll(async () => gateway.close());

  describe("create", () => {
    it("answers success and an empty message only: no data, no key", async () => {
      const created = await alice.client.management.POST("/api/token/", {
        body: { name: "ci-bot", remain_quota: 500_000 },
      });
      expect(created.response.status).toBe(200);
      expect(created.data).toEqual({ success: true, message: "" });
    });

    it("stores every creation field; model_limits goes in as an array and comes out comma separated", async () => {
      const token = await createTokenForTest(alice.client, {
        expired_time: startTime + 3600,
        remain_quota: 123_456,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: ["gpt-4o-mini", "gmx-2.5-flash"],
        allow_ips: "10.0.0.0/8\n2001:db8::/32, 192.168.1.7",
        group: "auto",
        cross_group_retry: true,
        rpm_limit: 60,
        tpm_limit: 100_000,
      });
      expect(token).toEqual({
        id: expect.any(Number),
        user_id: alice.user.id,
        name: token.name,
        key: expect.stringMatching(maskedKey),
        status: 1,
        remain_quota: 123_456,
        used_quota: 0,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: "gpt-4o-mini,gmx-2.5-flash",
        allow_ips: "10.0.0.0/8\n2001:db8::/32, 192.168.1.7",
        group: "auto",
        cross_group_retry: true,
        rpm_limit: 60,
        tpm_limit: 100_000,
        expired_time: startTime + 3600,
        created_time: startTime,
        accessed_time: startTime,
      });
    });

    it("applies the documented defaults; an empty group means the owner's group", async () => {
      const token = await createTokenForTest(alice.client);
      expect(token).toMatchObject({
        status: 1,
        remain_quota: 0,
        used_quota: 0,
        unlimited_quota: false,
        model_limits_enabled: false,
        model_limits: "",
        allow_ips: "",
        group: "",
        cross_group_retry: false,
        rpm_limit: 0,
        tpm_limit: 0,
        expired_time: -1,
      });
    });

    it("keeps an empty group empty for a user outside the default group (it means the owner's group, not 'default')", async () => {
      const vipUser = await createSignedInUser(gateway, { group: "vip" });
      expect(vipUser.user.group).toBe("vip");
      expect((await createTokenForTest(vipUser.client)).group).toBe("");
      expect((await createTokenForTest(vipUser.client, { group: "" })).group).toBe("");
      expect((await createTokenForTest(vipUser.client, { group: "default" })).group).toBe("default");
    });

    it("accepts a name of exactly 30 characters (counted as characters, not bytes)", async () => {
      const ascii = "a".repeat(30);
      const accented = "é".repeat(30);
      expect((await createTokenForTest(alice.client, { name: ascii })).name).toBe(ascii);
      expect((await createTokenForTest(alice.client, { name: accented })).name).toBe(accented);
    });

    it("refuses a name of 31 characters with the product's message", async () => {
      const refused = await alice.client.management.POST("/api/token/", { body: { name: "a".repeat(31) } });
      expect(refused.response.status).toBe(400);
      expect(refused.error).toEqual({ success: false, message: tokenMessages.nameTooLong });
      expect(tokenMessages.nameTooLong).toBe("name too long: a token name may have at most 30 characters");
    });

    it("refuses an IP allow-list entry that is not an address or range, naming the entry", async () => {
      const name = "bad-ip-token";
      const refused = await alice.client.management.POST("/api/token/", {
        body: { name, allow_ips: "10.0.0.0/8,10.0.0.300" },
      });
      expect(refused.response.status).toBe(400);
      expect(refused.error?.success).toBe(false);
      expect(refused.error?.message).toContain('"10.0.0.300"');
      const search = await alice.client.management.GET("/api/token/search", { params: { query: { keyword: name } } });
      expect(search.data?.data.total).toBe(0);
    });

    it("creates `count` tokens with the same settings, named <name>-1 … <name>-<count>", async () => {
      const created = await alice.client.management.POST("/api/token/", {
        body: { name: "batch-a", count: 3, remain_quota: 42, model_limits: ["m1"], model_limits_enabled: true },
      });
      expect(created.data).toEqual({ success: true, message: "" });
      const search = await alice.client.management.GET("/api/token/search", {
        params: { query: { keyword: "batch-a-" } },
      });
      const tokens = search.data!.data.items;
      expect(tokens.map((token) => token.name).sort()).toEqual(["batch-a-1", "batch-a-2", "batch-a-3"]);
      for (const token of tokens)
        expect(token).toMatchObject({ remain_quota: 42, model_limits: "m1", model_limits_enabled: true, status: 1 });
      const keys = await alice.client.management.POST("/api/token/batch/keys", {
        body: { ids: tokens.map((token) => token.id) },
      });
      expect(new Set(Object.values(keys.data!.data.keys)).size).toBe(3);
    });

    it("checks the 30-character limit against every generated batch name, suffix included", async () => {
      const name = "n".repeat(28);
      const refused = await alice.client.management.POST("/api/token/", { body: { name, count: 10 } });
      expect(refused.response.status).toBe(400);
      expect(refused.error).toEqual({ success: false, message: tokenMessages.nameTooLong });
      // "<28 characters>-10" has 31; nothing of the refused batch was created, and with 9 every name fits.
      const search = await alice.client.management.GET("/api/token/search", { params: { query: { keyword: name } } });
      expect(search.data?.data.total).toBe(0);
      expect((await alice.client.management.POST("/api/token/", { body: { name, count: 9 } })).data).toEqual({
        success: true,
        message: "",
      });
    });

    it("refuses count outside 1 to 100 as a parameter error", async () => {
      for (const count of [0, 101]) {
        const refused = await alice.client.management.POST("/api/token/", { body: { name: "too-many", count } });
        expect(refused.response.status).toBe(400);
        expect(refused.error?.message).toMatch(/^Parameter error: /);
      }
    });
  });

  describe("list", () => {
    it("pages the user's own tokens newest first with p=1 and size=20 by default", async () => {
      const carol = await createSignedInUser(gateway);
      await carol.client.management.POST("/api/token/", { body: { name: "page", count: 22 } });
      const first = await carol.client.management.GET("/api/token/", { params: { query: {} } });
      expect(first.response.status).toBe(200);
      expect(first.data).toMatchObject({ success: true, message: "", data: { total: 22, page: 1, page_size: 20 } });
      const items = first.data!.data.items;
      expect(items).toHaveLength(20);
      expect(items.map((token) => token.id)).toEqual(
        [...items.map((token) => token.id)].sort((left, right) => right - left),
      );
      for (const token of items) {
        expect(token.user_id).toBe(carol.user.id);
        expect(token.key).toMatch(maskedKey);
      }
      const second = await carol.client.management.GET("/api/token/", { params: { query: { p: 2 } } });
      expect(second.data?.data).toMatchObject({ total: 22, page: 2, page_size: 20 });
      expect(second.data?.data.items).toHaveLength(2);
      const allIds = [...items, ...second.data!.data.items].map((token) => token.id);
      expect(new Set(allIds).size).toBe(22);
      const smallPage = await carol.client.management.GET("/api/token/", { params: { query: { p: 3, size: 5 } } });
      expect(smallPage.data?.data).toMatchObject({ total: 22, page: 3, page_size: 5 });
      expect(smallPage.data?.data.items.map((token) => token.id)).toEqual(allIds.slice(10, 15));
      const pastTheEnd = await carol.client.management.GET("/api/token/", { params: { query: { p: 9 } } });
      expect(pastTheEnd.data?.data).toEqual({ items: [], total: 22, page: 9, page_size: 20 });
    });

    it("masks every key as its first 4 characters, 10 asterisks and its last 4", async () => {
      const token = await createTokenForTest(alice.client);
      const key = (await revealApiKey(alice.client, token.id)).slice("sk-".length);
      expect(token.key).toBe(`${key.slice(0, 4)}**********${key.slice(-4)}`);
      const list = await alice.client.management.GET("/api/token/", { params: { query: { size: 100 } } });
      const listed = list.data!.data.items.find((item) => item.id === token.id)!;
      expect(listed.key).toBe(token.key);
      expect(JSON.stringify(list.data)).not.toContain(key);
    });

    it("never shows another user's tokens", async () => {
      const bobToken = await createTokenForTest(bob.client);
      const list = await alice.client.management.GET("/api/token/", { params: { query: { size: 100 } } });
      expect(list.data!.data.items.some((token) => token.id === bobToken.id)).toBe(false);
      expect(list.data!.data.items.every((token) => token.user_id === alice.user.id)).toBe(true);
    });

    it("refuses a page size above 100 or a page below 1 as a parameter error", async () => {
      const tooBig = await alice.client.management.GET("/api/token/", { params: { query: { size: 101 } } });
      expect(tooBig.response.status).toBe(400);
      expect(tooBig.error?.success).toBe(false);
      expect(tooBig.error?.message).toMatch(/^Parameter error: /);
      const pageZero = await alice.client.management.GET("/api/token/", { params: { query: { p: 0 } } });
      expect(pageZero.response.status).toBe(400);
      expect(pageZero.error?.message).toMatch(/^Parameter error: /);
    });
  });

  describe("get", () => {
    it("returns one of the user's tokens with the key masked", async () => {
      const token = await createTokenForTest(alice.client, { remain_quota: 7 });
      const found = await alice.client.management.GET("/api/token/{id}", { params: { path: { id: token.id } } });
      expect(found.data).toEqual({ success: true, message: "", data: token });
    });

    it("answers 404 'Token does not exist.' for another user's token and for an unknown id", async () => {
      const bobToken = await createTokenForTest(bob.client);
      for (const id of [bobToken.id, 987_654]) {
        const missing = await alice.client.management.GET("/api/token/{id}", { params: { path: { id } } });
        expect(missing.response.status).toBe(404);
        expect(missing.error).toEqual({ success: false, message: "Token does not exist." });
      }
    });
  });

  describe("delete", () => {
    it("deletes one token, after which it is gone and its key stops working", async () => {
      const token = await createTokenForTest(alice.client, { unlimited_quota: true });
      const apiKey = await revealApiKey(alice.client, token.id);
      expect((await gateway.clientFor({ apiKey }).openai.GET("/v1/models")).response.status).not.toBe(401);
      const deleted = await alice.client.management.DELETE("/api/token/{id}", { params: { path: { id: token.id } } });
      expect(deleted.response.status).toBe(200);
      expect(deleted.data).toEqual({ success: true, message: "" });
      const again = await alice.client.management.GET("/api/token/{id}", { params: { path: { id: token.id } } });
      expect(again.error).toEqual({ success: false, message: "Token does not exist." });
      const deleteAgain = await alice.client.management.DELETE("/api/token/{id}", {
        params: { path: { id: token.id } },
      });
      expect(deleteAgain.response.status).toBe(404);
      expect(deleteAgain.error).toEqual({ success: false, message: "Token does not exist." });
      expect((await gateway.clientFor({ apiKey }).openai.GET("/v1/models")).response.status).toBe(401);
    });

    it("refuses to delete another user's token (404) and leaves it in place", async () => {
      const bobToken = await createTokenForTest(bob.client);
      const refused = await alice.client.management.DELETE("/api/token/{id}", {
        params: { path: { id: bobToken.id } },
      });
      expect(refused.response.status).toBe(404);
      expect(refused.error).toEqual({ success: false, message: "Token does not exist." });
      expect(
        (await bob.client.management.GET("/api/token/{id}", { params: { path: { id: bobToken.id } } })).data?.data.id,
      ).toBe(bobToken.id);
    });
  });

  describe("batch delete", () => {
    it("deletes the listed own tokens and counts them; other users' and unknown ids are skipped", async () => {
      const first = await createTokenForTest(alice.client);
      const second = await createTokenForTest(alice.client);
      const kept = await createTokenForTest(alice.client);
      const bobToken = await createTokenForTest(bob.client);
      const deleted = await alice.client.management.POST("/api/token/batch", {
        body: { ids: [first.id, second.id, bobToken.id, 987_654] },
      });
      expect(deleted.response.status).toBe(200);
      expect(deleted.data).toEqual({ success: true, message: "", data: 2 });
      for (const id of [first.id, second.id]) {
        expect(
          (await alice.client.management.GET("/api/token/{id}", { params: { path: { id } } })).response.status,
        ).toBe(404);
      }
      expect(
        (await alice.client.management.GET("/api/token/{id}", { params: { path: { id: kept.id } } })).response.status,
      ).toBe(200);
      expect(
        (await bob.client.management.GET("/api/token/{id}", { params: { path: { id: bobToken.id } } })).response.status,
      ).toBe(200);
      const nothing = await alice.client.management.POST("/api/token/batch", { body: { ids: [first.id] } });
      expect(nothing.data).toEqual({ success: true, message: "", data: 0 });
    });

    it("answers a parameter error for empty or missing ids", async () => {
      const empty = await alice.client.management.POST("/api/token/batch", { body: { ids: [] } });
      expect(empty.response.status).toBe(400);
      expect(empty.error?.success).toBe(false);
      expect(empty.error?.message).toMatch(/^Parameter error/);
      // The typed client cannot express a body without ids; that is the point of this case.
      const missing = await alice.client.management.POST("/api/token/batch", { body: {} as never });
      expect(missing.response.status).toBe(400);
      expect(missing.error?.message).toMatch(/^Parameter error/);
      const notIntegers = await alice.client.management.POST("/api/token/batch", { body: { ids: ["x"] } as never });
      expect(notIntegers.response.status).toBe(400);
      expect(notIntegers.error?.message).toMatch(/^Parameter error/);
    });
  });
});
