import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../generated/types/management.js";
import { apiKeyMessages } from "../../src/auth/api-key-messages.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

type CreateTokenRequest = components["schemas"]["CreateTokenRequest"];

const testDatabases = await openTestDatabases();
const generousRevealBudget = { key_reveal_rate_limit: { points: 1000, duration_seconds: 60 } };
const unknownKey = `sk-${"Z".repeat(48)}`;
const nativeBody = { contents: [{ role: "user" as const, parts: [{ text: "hello" }] }] };

/**
 * Most /v1 and /v1beta handlers still answer 501, and authentication runs before any handler: so anything but
 * 401, 402 or 403 on a route that exists means the key was accepted (404 is excluded too, so a path the router
 * does not know cannot pass for success). Auth failures are asserted exactly.
 */
function expectAccepted(response: Response): void {
  expect([401, 402, 403, 404], `status ${response.status}`).not.toContain(response.status);
}

const openaiError = (status: 401 | 402 | 403, message: string, code: string) => ({
  error: {
    message,
    type: { 401: "authentication_error", 402: "insufficient_quota", 403: "permission_error" }[status],
    code,
    param: null,
  },
});
const nativeError = (status: 401 | 402 | 403, message: string) => ({
  error: {
    code: status,
    message,
    status: { 401: "UNAUTHENTICATED", 402: "RESOURCE_EXHAUSTED", 403: "PERMISSION_DENIED" }[status],
  },
});

describe.each(testDatabases)("API key authentication on $name", ({ database }) => {
  describe("without trusted proxies", () => {
    let gateway: TestGateway;
    let alice: SignedInUser;
    let clock = 1_800_000_000;
    beforeAll(async () => {
      gateway = await startTestGateway({ database, now: () => clock, configFile: generousRevealBudget });
      alice = await createSignedInUser(gateway);
    });
    afterAll(async () => gateway.close());

    const newKey = async (body: Partial<CreateTokenRequest> = { unlimited_quota: true }) => {
      const token = await createTokenForTest(alice.client, body);
      return { token, apiKey: await revealApiKey(alice.client, token.id) };
    };
    const callOpenai = (apiKey: string | undefined, headers: Record<string, string> = {}) =>
      gateway.clientFor(apiKey ? { apiKey } : {}).openai.GET("/v1/models", { headers });
    const callNative = (apiKey: string | undefined, headers: Record<string, string> = {}) =>
      gateway.clientFor(apiKey ? { apiKey } : {}).native.GET("/v1beta/models", { headers });
    const readToken = async (id: number) =>
      (await alice.client.management.GET("/api/token/{id}", { params: { path: { id } } })).data!.data;

    describe("where the key may be", () => {
      it("accepts Authorization: Bearer sk-… on /v1 and records the access time", async () => {
        const { token, apiKey } = await newKey();
        expect(token.accessed_time).toBe(clock);
        clock += 500;
        expectAccepted((await callOpenai(apiKey)).response);
        await gateway.gateway.context.accessTimeRecorder.flush();
        expect((await readToken(token.id)).accessed_time).toBe(clock);
      });

      it("accepts Bearer, x-native-api-key, x-goog-api-key and ?key= on /v1beta, with and without sk-", async () => {
        const { token, apiKey } = await newKey();
        const bare = apiKey.slice("sk-".length);
        const anonymous = gateway.clientFor({}).native;
        clock += 10;
        expectAccepted((await callNative(apiKey)).response);
        for (const key of [apiKey, bare]) {
          expectAccepted((await anonymous.GET("/v1beta/models", { headers: { "x-native-api-key": key } })).response);
          expectAccepted((await anonymous.GET("/v1beta/models", { headers: { "x-goog-api-key": key } })).response);
          // The spec declares ?key= as a security scheme, not a parameter, so the typed client has no slot for it.
          expectAccepted(await fetch(`${gateway.url}/v1beta/models?key=${encodeURIComponent(key)}`));
        }
        await gateway.gateway.context.accessTimeRecorder.flush();
        expect((await readToken(token.id)).accessed_time).toBe(clock);
      });

      it("accepts the native headers on the native routes under /v1 as newer native SDKs call them", async () => {
        const { apiKey } = await newKey();
        const generate = (headers: Record<string, string>) =>
          gateway.clientFor({}).native.POST("/v1/models/{model}:generateContent", {
            params: { path: { model: "gmx-2.5-flash" } },
            headers,
            body: nativeBody,
          });
        const withoutKey = await generate({});
        expect(withoutKey.response.status).toBe(401);
        expect(withoutKey.error).toEqual(nativeError(401, apiKeyMessages.missingNative));
        // Past authentication the relay may still answer 404 for a model without a channel; only auth failures count.
        const withKey = await generate({ "x-goog-api-key": apiKey });
        expect([401, 402, 403]).not.toContain(withKey.response.status);
      });

      it("takes only the Bearer header on the OpenAI-style /v1 routes", async () => {
        const { apiKey } = await newKey();
        const nativeHeader = await callOpenai(undefined, { "x-goog-api-key": apiKey });
        expect(nativeHeader.response.status).toBe(401);
        expect(nativeHeader.error).toEqual(openaiError(401, apiKeyMessages.missing, "invalid_authentication"));
        const query = await fetch(`${gateway.url}/v1/models?key=${encodeURIComponent(apiKey)}`);
        expect(query.status).toBe(401);
      });
    });

    describe("missing and wrong keys", () => {
      it("answers 401 in the OpenAI envelope on /v1", async () => {
        const missing = await callOpenai(undefined);
        expect(missing.response.status).toBe(401);
        expect(missing.error).toEqual(openaiError(401, apiKeyMessages.missing, "invalid_authentication"));
        for (const wrong of [unknownKey, "sk-short", "Zm9v"]) {
          const refused = await callOpenai(wrong);
          expect(refused.response.status).toBe(401);
          expect(refused.error).toEqual(openaiError(401, apiKeyMessages.invalid, "invalid_authentication"));
        }
        // A POST with a body is refused the same way, before its body is looked at.
        const chat = await gateway.clientFor({ apiKey: unknownKey }).openai.POST("/v1/chat/completions", {
          body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] },
        });
        expect(chat.response.status).toBe(401);
        expect(chat.error).toEqual(openaiError(401, apiKeyMessages.invalid, "invalid_authentication"));
      });

      it("answers 401 in the native envelope on /v1beta", async () => {
        const missing = await callNative(undefined);
        expect(missing.response.status).toBe(401);
        expect(missing.error).toEqual(nativeError(401, apiKeyMessages.missingNative));
        const wrongBearer = await callNative(unknownKey);
        expect(wrongBearer.response.status).toBe(401);
        expect(wrongBearer.error).toEqual(nativeError(401, apiKeyMessages.invalid));
        const wrongHeader = await gateway
          .clientFor({})
          .native.GET("/v1beta/models", { headers: { "x-goog-api-key": unknownKey } });
        expect(wrongHeader.error).toEqual(nativeError(401, apiKeyMessages.invalid));
        const wrongQuery = await fetch(`${gateway.url}/v1beta/models?key=${unknownKey}`);
        expect(wrongQuery.status).toBe(401);
        expect(await wrongQuery.json()).toEqual(nativeError(401, apiKeyMessages.invalid));
        const generate = await gateway.clientFor({}).native.POST("/v1beta/models/{model}:generateContent", {
          params: { path: { model: "gmx-2.5-flash" } },
          body: nativeBody,
        });
        expect(generate.response.status).toBe(401);
        expect(generate.error).toEqual(nativeError(401, apiKeyMessages.missingNative));
      });
    });

    describe("token state", () => {
      it("refuses a disabled token (403) and accepts it again once enabled", async () => {
        const { token, apiKey } = await newKey();
        await alice.client.management.PUT("/api/token/", {
          body: { id: token.id, status: 2 },
          params: { query: { status_only: true } },
        });
        const openai = await callOpenai(apiKey);
        expect(openai.response.status).toBe(403);
        expect(openai.error).toEqual(openaiError(403, apiKeyMessages.disabled, "token_disabled"));
        const native = await callNative(apiKey);
        expect(native.response.status).toBe(403);
        expect(native.error).toEqual(nativeError(403, apiKeyMessages.disabled));
        await alice.client.management.PUT("/api/token/", {
          body: { id: token.id, status: 1 },
          params: { query: { status_only: true } },
        });
        expectAccepted((await callOpenai(apiKey)).response);
      });

      it("refuses an expired token (403) and moves it to status 3", async () => {
        const { token, apiKey } = await newKey({ unlimited_quota: true, expired_time: clock + 100 });
        expectAccepted((await callOpenai(apiKey)).response);
        clock += 100;
        const openai = await callOpenai(apiKey);
        expect(openai.response.status).toBe(403);
        expect(openai.error).toEqual(openaiError(403, apiKeyMessages.expired, "token_expired"));
        expect((await readToken(token.id)).status).toBe(3);
        const native = await callNative(apiKey);
        expect(native.response.status).toBe(403);
        expect(native.error).toEqual(nativeError(403, apiKeyMessages.expired));
        expect((await readToken(token.id)).status).toBe(3);
      });

      it("refuses a token whose quota is used up (402) but accepts an unlimited one with 0 quota", async () => {
        const { token, apiKey } = await newKey({ remain_quota: 0 });
        const openai = await callOpenai(apiKey);
        expect(openai.response.status).toBe(402);
        expect(openai.error).toEqual(openaiError(402, apiKeyMessages.exhausted, "insufficient_quota"));
        const native = await callNative(apiKey);
        expect(native.response.status).toBe(402);
        expect(native.error).toEqual(nativeError(402, apiKeyMessages.exhausted));
        // Quota of 1 unit is enough to pass authentication; what a request costs is the relay's concern.
        await alice.client.management.PUT("/api/token/", { body: { id: token.id, remain_quota: 1 } });
        expectAccepted((await callOpenai(apiKey)).response);

        const unlimited = await newKey({ remain_quota: 0, unlimited_quota: true });
        expectAccepted((await callOpenai(unlimited.apiKey)).response);
        expectAccepted((await callNative(unlimited.apiKey)).response);
      });
    });

    describe("IP allow-list (the test client connects from 127.0.0.1)", () => {
      it("refuses an address outside the list (403) in both envelopes", async () => {
        const { apiKey } = await newKey({ unlimited_quota: true, allow_ips: "10.0.0.0/8\n2001:db8::/32" });
        const openai = await callOpenai(apiKey);
        expect(openai.response.status).toBe(403);
        expect(openai.error).toEqual(openaiError(403, apiKeyMessages.ipNotAllowed("127.0.0.1"), "ip_not_allowed"));
        const native = await callNative(apiKey);
        expect(native.response.status).toBe(403);
        expect(native.error).toEqual(nativeError(403, apiKeyMessages.ipNotAllowed("127.0.0.1")));
      });

      it.each([
        ["an exact IPv4 address", "127.0.0.1"],
        ["an IPv4 CIDR", "10.0.0.0/8, 127.0.0.0/8"],
        ["an IPv6 CIDR covering IPv4-mapped addresses", "2001:db8::/32\n::ffff:127.0.0.0/104"],
        ["the whole IPv6 space", "::/0"],
      ])("accepts %s that matches", async (_description, allowIps) => {
        const { apiKey } = await newKey({ unlimited_quota: true, allow_ips: allowIps });
        expectAccepted((await callOpenai(apiKey)).response);
        expectAccepted((await callNative(apiKey)).response);
      });

      it("ignores X-Forwarded-For when no proxy is trusted", async () => {
        const outside = await newKey({ unlimited_quota: true, allow_ips: "203.0.113.0/24" });
        const spoofed = await callOpenai(outside.apiKey, { "X-Forwarded-For": "203.0.113.9" });
        expect(spoofed.response.status).toBe(403);
        expect(spoofed.error).toEqual(openaiError(403, apiKeyMessages.ipNotAllowed("127.0.0.1"), "ip_not_allowed"));
        const local = await newKey({ unlimited_quota: true, allow_ips: "127.0.0.1" });
        expectAccepted((await callOpenai(local.apiKey, { "X-Forwarded-For": "203.0.113.9" })).response);
      });
    });
  });

  describe("with TRUSTED_PROXIES=127.0.0.1", () => {
    let gateway: TestGateway;
    let alice: SignedInUser;
    beforeAll(async () => {
      gateway = await startTestGateway({
        database,
        environment: { TRUSTED_PROXIES: "127.0.0.1" },
        configFile: generousRevealBudget,
      });
      alice = await createSignedInUser(gateway);
    });
    afterAll(async () => gateway.close());

    it("checks the client address from X-Forwarded-For sent by the trusted proxy", async () => {
      const token = await createTokenForTest(alice.client, { unlimited_quota: true, allow_ips: "203.0.113.0/24" });
      const apiKey = await revealApiKey(alice.client, token.id);
      const call = (headers: Record<string, string>) =>
        gateway.clientFor({ apiKey }).openai.GET("/v1/models", { headers });
      expectAccepted((await call({ "X-Forwarded-For": "203.0.113.9" })).response);
      expectAccepted(
        (
          await gateway
            .clientFor({})
            .native.GET("/v1beta/models", { headers: { "x-goog-api-key": apiKey, "X-Forwarded-For": "203.0.113.9" } })
        ).response,
      );
      // A client-written left part does not help: the rightmost address the proxy did not add is the client.
      const leftSpoof = await call({ "X-Forwarded-For": "203.0.113.9, 198.51.100.7" });
      expect(leftSpoof.response.status).toBe(403);
      expect(leftSpoof.error).toEqual(openaiError(403, apiKeyMessages.ipNotAllowed("198.51.100.7"), "ip_not_allowed"));
      // Without the header the proxy's own address is the client.
      const direct = await call({});
      expect(direct.response.status).toBe(403);
      expect(direct.error).toEqual(openaiError(403, apiKeyMessages.ipNotAllowed("127.0.0.1"), "ip_not_allowed"));
    });
  });
});
