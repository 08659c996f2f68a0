import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";

const testDatabases = await openTestDatabases();
const fullKey = /^[A-Za-z0-9]{48}$/;

describe.each(testDatabases)("token key endpoints on $name", ({ database }) => {
  describe("with a generous reveal budget", () => {
    let gateway: TestGateway;
    let alice: SignedInUser;
    let bob: SignedInUser;
    beforeAll(async () => {
      gateway = await startTestGateway({
        database,
        configFile: { key_reveal_rate_limit: { points: 1000, duration_seconds: 60 } },
      });
      alice = await createSignedInUser(gateway);
      bob = await createSignedInUser(gateway);
    });
    afterAll(async () => gateway.close());

    it("reveals one full key: 48 characters without sk-, matching the mask, not cached, usable as sk-<key>", async () => {
      const token = await createTokenForTest(alice.client, { unlimited_quota: true });
      const revealed = await alice.client.management.POST("/api/token/{id}/key", {
        params: { path: { id: token.id } },
      });
      expect(revealed.response.status).toBe(200);
      expect(revealed.response.headers.get("cache-control")).toBe("no-store");
      expect(revealed.data).toEqual({ success: true, message: "", data: { key: expect.stringMatching(fullKey) } });
      const key = revealed.data!.data.key;
      expect(key.startsWith("sk-")).toBe(false);
      expect(token.key).toBe(`${key.slice(0, 4)}**********${key.slice(-4)}`);
      const again = await alice.client.management.POST("/api/token/{id}/key", { params: { path: { id: token.id } } });
      expect(again.data?.data.key).toBe(key);
      const models = await gateway.clientFor({ apiKey: `sk-${key}` }).openai.GET("/v1/models");
      expect([401, 402, 403]).not.toContain(models.response.status);
    });

    it("answers 404 'Token does not exist.' for another user's token and for an unknown id", async () => {
      const bobToken = await createTokenForTest(bob.client);
      for (const id of [bobToken.id, 987_654]) {
        const refused = await alice.client.management.POST("/api/token/{id}/key", { params: { path: { id } } });
        expect(refused.response.status).toBe(404);
        expect(refused.error).toEqual({ success: false, message: "Token does not exist." });
      }
    });

    it("reveals several keys by id as a string, leaving out other users' and unknown ids", async () => {
      const first = await createTokenForTest(alice.client);
      const second = await createTokenForTest(alice.client);
      const bobToken = await createTokenForTest(bob.client);
      const revealed = await alice.client.management.POST("/api/token/batch/keys", {
        body: { ids: [first.id, second.id, bobToken.id, 987_654, first.id] },
      });
      expect(revealed.response.status).toBe(200);
      expect(revealed.response.headers.get("cache-control")).toBe("no-store");
      const keys = revealed.data!.data.keys;
      expect(Object.keys(keys).sort()).toEqual([String(first.id), String(second.id)].sort());
      for (const [id, key] of Object.entries(keys)) {
        expect(key).toMatch(fullKey);
        const single = await alice.client.management.POST("/api/token/{id}/key", {
          params: { path: { id: Number(id) } },
        });
        expect(single.data?.data.key).toBe(key);
      }
      expect(keys[String(first.id)]).not.toBe(keys[String(second.id)]);
    });

    it("answers an empty object when none of the ids is the user's", async () => {
      const bobToken = await createTokenForTest(bob.client);
      const revealed = await alice.client.management.POST("/api/token/batch/keys", { body: { ids: [bobToken.id] } });
      expect(revealed.data).toEqual({ success: true, message: "", data: { keys: {} } });
    });

    it("takes 100 ids and refuses 101, empty or missing ids as parameter errors", async () => {
      const token = await createTokenForTest(alice.client);
      const hundred = [token.id, ...Array.from({ length: 99 }, (_, index) => 900_000 + index)];
      const accepted = await alice.client.management.POST("/api/token/batch/keys", { body: { ids: hundred } });
      expect(accepted.response.status).toBe(200);
      expect(Object.keys(accepted.data!.data.keys)).toEqual([String(token.id)]);

      const tooMany = await alice.client.management.POST("/api/token/batch/keys", {
        body: { ids: [...hundred, 999_999] },
      });
      expect(tooMany.response.status).toBe(400);
      expect(tooMany.error?.success).toBe(false);
      expect(tooMany.error?.message).toMatch(/^Parameter error/);
      const empty = await alice.client.management.POST("/api/token/batch/keys", { body: { ids: [] } });
      expect(empty.response.status).toBe(400);
      expect(empty.error?.message).toMatch(/^Parameter error/);
      // The typed client cannot express a body without ids; that is the point of this case.
      const missing = await alice.client.management.POST("/api/token/batch/keys", { body: {} as never });
      expect(missing.response.status).toBe(400);
      expect(missing.error?.message).toMatch(/^Parameter error/);
    });
  });

  describe("with key_reveal_rate_limit {points: 3, duration_seconds: 60}", () => {
    let gateway: TestGateway;
    let alice: SignedInUser;
    let bob: SignedInUser;
    beforeAll(async () => {
      gateway = await startTestGateway({
        database,
        configFile: { key_reveal_rate_limit: { points: 3, duration_seconds: 60 } },
      });
      alice = await createSignedInUser(gateway);
      bob = await createSignedInUser(gateway);
    });
    afterAll(async () => gateway.close());

    it("allows 3 retrievals per user, then answers 429 with Retry-After; both key endpoints share the budget", async () => {
      const token = await createTokenForTest(alice.client);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const revealed = await alice.client.management.POST("/api/token/{id}/key", {
          params: { path: { id: token.id } },
        });
        expect(revealed.response.status).toBe(200);
      }
      const batch = await alice.client.management.POST("/api/token/batch/keys", { body: { ids: [token.id] } });
      expect(batch.response.status).toBe(200);

      const limited = await alice.client.management.POST("/api/token/{id}/key", { params: { path: { id: token.id } } });
      expect(limited.response.status).toBe(429);
      expect(limited.error?.success).toBe(false);
      expect(limited.error?.message).toMatch(/retry in \d+ seconds/);
      const retryAfter = Number(limited.response.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(JSON.stringify(limited.error)).not.toMatch(/[A-Za-z0-9]{48}/);

      const limitedBatch = await alice.client.management.POST("/api/token/batch/keys", { body: { ids: [token.id] } });
      expect(limitedBatch.response.status).toBe(429);
      expect(limitedBatch.response.headers.get("retry-after")).toMatch(/^\d+$/);
    });

    it("counts each user separately", async () => {
      const token = await createTokenForTest(bob.client);
      const revealed = await bob.client.management.POST("/api/token/{id}/key", { params: { path: { id: token.id } } });
      expect(revealed.response.status).toBe(200);
    });
  });
});
