import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../generated/types/management.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { updateTokenStatus } from "../../src/store/tokens/update-token-status.js";
import { tokenMessages } from "../../src/tokens/token-messages.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("token update and status on $name", ({ database }) => {
  let gateway: TestGateway;
  let alice: SignedInUser;
  let clock = 1_800_000_000;
  beforeAll(async () => {
    gateway = await startTestGateway({
      database,
      now: () => clock,
      // vip is a group every user may pick, so alice may put it on her tokens.
      configFile: {
        key_reveal_rate_limit: { points: 1000, duration_seconds: 60 },
        groups: { vip: { ratio: 2, selectable: true } },
      },
    });
    alice = await createSignedInUser(gateway);
  });
  afterAll(async () => gateway.close());

  const update = (body: components["schemas"]["UpdateTokenRequest"], statusOnly?: boolean) =>
    alice.client.management.PUT("/api/token/", {
      body,
      params: { query: statusOnly === undefined ? {} : { status_only: statusOnly } },
    });
  const read = async (id: number) =>
    (await alice.client.management.GET("/api/token/{id}", { params: { path: { id } } })).data!.data;

  it.each([
    ["name", { name: "renamed" }, { name: "renamed" }],
    ["expired_time", { expired_time: 1_900_000_000 }, { expired_time: 1_900_000_000 }],
    ["remain_quota", { remain_quota: 777 }, { remain_quota: 777 }],
    ["unlimited_quota", { unlimited_quota: true }, { unlimited_quota: true }],
    ["model_limits_enabled", { model_limits_enabled: true }, { model_limits_enabled: true }],
    [
      "model_limits (array in, comma separated out)",
      { model_limits: ["gpt-4o", "gmx-3.5-flash", "x"] },
      { model_limits: "gpt-4o,gmx-3.5-flash,x" },
    ],
    ["allow_ips", { allow_ips: "127.0.0.1\n::1/128,10.0.0.0/8" }, { allow_ips: "127.0.0.1\n::1/128,10.0.0.0/8" }],
    ["group", { group: "vip" }, { group: "vip" }],
    ["cross_group_retry", { cross_group_retry: true }, { cross_group_retry: true }],
    ["status", { status: 2 as const }, { status: 2 }],
  ])("changes %s alone and answers the updated token with its key masked", async (_field, change, expected) => {
    const before = await createTokenForTest(alice.client, { remain_quota: 10 });
    const updated = await update({ id: before.id, ...change });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toEqual({ success: true, message: "", data: { ...before, ...expected } });
    expect(updated.data!.data.key).toMatch(/^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
    expect(await read(before.id)).toEqual({ ...before, ...expected });
  });

  it("changes several fields at once and keeps absent ones", async () => {
    const before = await createTokenForTest(alice.client, {
      remain_quota: 10,
      allow_ips: "10.0.0.0/8",
      model_limits: ["a"],
    });
    const updated = await update({
      id: before.id,
      name: "ci-bot-2026",
      remain_quota: 1_000_000,
      expired_time: 1_798_761_600,
      model_limits: [],
    });
    expect(updated.data?.data).toEqual({
      ...before,
      name: "ci-bot-2026",
      remain_quota: 1_000_000,
      expired_time: 1_798_761_600,
      model_limits: "",
    });
  });

  it("refuses a name of 31 characters with the product's message and changes nothing", async () => {
    const before = await createTokenForTest(alice.client);
    const refused = await update({ id: before.id, name: "b".repeat(31), remain_quota: 5 });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({ success: false, message: tokenMessages.nameTooLong });
    expect(await read(before.id)).toEqual(before);
  });

  it("refuses a bad allow_ips entry with a 400 naming it and changes nothing", async () => {
    const before = await createTokenForTest(alice.client, { allow_ips: "10.0.0.0/8" });
    for (const entry of ["300.1.1.1", "10.0.0.0/33", "localhost", "2001:db8::/129"]) {
      const refused = await update({ id: before.id, allow_ips: `127.0.0.1,${entry}` });
      expect(refused.response.status).toBe(400);
      expect(refused.error?.success).toBe(false);
      expect(refused.error?.message).toContain(`"${entry}"`);
    }
    expect(await read(before.id)).toEqual(before);
  });

  it("answers 404 'Token does not exist.' for another user's token and leaves it alone", async () => {
    const bob = await createSignedInUser(gateway);
    const bobToken = await createTokenForTest(bob.client);
    const refused = await update({ id: bobToken.id, name: "stolen" });
    expect(refused.response.status).toBe(404);
    expect(refused.error).toEqual({ success: false, message: "Token does not exist." });
    expect(
      (await bob.client.management.GET("/api/token/{id}", { params: { path: { id: bobToken.id } } })).data?.data.name,
    ).toBe(bobToken.name);
  });

  describe("status_only", () => {
    it("applies only the status even when other fields are sent", async () => {
      const before = await createTokenForTest(alice.client, { remain_quota: 10 });
      const disabled = await update(
        { id: before.id, status: 2, name: "ignored", remain_quota: 999, allow_ips: "not-an-ip", group: "vip" },
        true,
      );
      expect(disabled.response.status).toBe(200);
      expect(disabled.data?.data).toEqual({ ...before, status: 2 });
      const enabled = await update({ id: before.id, status: 1, name: "ignored again" }, true);
      expect(enabled.data?.data).toEqual({ ...before, status: 1 });
    });

    it("with status_only=false applies every field as usual", async () => {
      const before = await createTokenForTest(alice.client, { remain_quota: 10 });
      const updated = await update({ id: before.id, status: 2, name: "applied" }, false);
      expect(updated.data?.data).toEqual({ ...before, status: 2, name: "applied" });
    });

    it("requires status (400) and changes nothing without it", async () => {
      const before = await createTokenForTest(alice.client, { remain_quota: 10 });
      const refused = await update({ id: before.id, name: "ignored" }, true);
      expect(refused.response.status).toBe(400);
      expect(refused.error).toEqual({ success: false, message: tokenMessages.statusRequired });
      expect(await read(before.id)).toEqual(before);
    });
  });

  describe("enabling", () => {
    it("re-enables a disabled token, whatever its quota (the seed's only condition is expiry)", async () => {
      const before = await createTokenForTest(alice.client);
      expect(before.remain_quota).toBe(0);
      await update({ id: before.id, status: 2 }, true);
      const enabled = await update({ id: before.id, status: 1 }, true);
      expect(enabled.response.status).toBe(200);
      expect(enabled.data?.data.status).toBe(1);
      // A client that sends the token it read back (status included) can still edit a token without quota.
      const edited = await update({ id: before.id, name: "edited", status: 1 });
      expect(edited.response.status).toBe(200);
      expect(edited.data?.data).toEqual({ ...before, name: "edited" });
    });

    it("keeps an expired token at status 3 with the seed's message while its expiry is in the past", async () => {
      const token = await createTokenForTest(alice.client, { unlimited_quota: true, expired_time: clock + 60 });
      const apiKey = await revealApiKey(alice.client, token.id);
      const models = () => gateway.clientFor({ apiKey }).openai.GET("/v1/models");
      expect([401, 402, 403]).not.toContain((await models()).response.status);
      clock += 120;
      // Using the key after its expiry moves the token to status 3.
      expect((await models()).response.status).toBe(403);
      expect((await read(token.id)).status).toBe(3);

      for (const statusOnly of [true, false, undefined]) {
        const refused = await update({ id: token.id, status: 1 }, statusOnly);
        expect(refused.response.status).toBe(400);
        expect(refused.error).toEqual({ success: false, message: tokenMessages.expiredCannotEnable });
        expect((await read(token.id)).status).toBe(3);
      }
      expect(tokenMessages.expiredCannotEnable).toMatch(/expired/);
      expect(tokenMessages.expiredCannotEnable).toMatch(/never expire/);
      // An expiry that is still in the past does not help either.
      const stillPast = await update({ id: token.id, status: 1, expired_time: clock - 1 });
      expect(stillPast.error).toEqual({ success: false, message: tokenMessages.expiredCannotEnable });
      expect(await read(token.id)).toMatchObject({ status: 3, expired_time: token.expired_time });
    });

    it("enables an expired token when the same request sets expired_time -1 (or a future time)", async () => {
      const token = await createTokenForTest(alice.client, { unlimited_quota: true, expired_time: clock + 10 });
      const apiKey = await revealApiKey(alice.client, token.id);
      clock += 20;
      expect((await gateway.clientFor({ apiKey }).openai.GET("/v1/models")).response.status).toBe(403);
      expect((await read(token.id)).status).toBe(3);
      const enabled = await update({ id: token.id, expired_time: -1, status: 1 });
      expect(enabled.response.status).toBe(200);
      expect(enabled.data?.data).toMatchObject({ status: 1, expired_time: -1 });
      expect([401, 402, 403]).not.toContain(
        (await gateway.clientFor({ apiKey }).openai.GET("/v1/models")).response.status,
      );

      const second = await createTokenForTest(alice.client, { unlimited_quota: true, expired_time: clock + 10 });
      clock += 20;
      const refused = await update({ id: second.id, status: 1 });
      expect(refused.error).toEqual({ success: false, message: tokenMessages.expiredCannotEnable });
      const future = await update({ id: second.id, expired_time: clock + 3600, status: 1 });
      expect(future.data?.data).toMatchObject({ status: 1, expired_time: clock + 3600 });
    });

    it("keeps a quota-exhausted token (status 4) disabled until it has quota again", async () => {
      const token = await createTokenForTest(alice.client, { remain_quota: 0 });
      // Billing moves a token to 4 when its quota runs out; the store call stands in for it here.
      await updateTokenStatus(database.db, token.id, 4);
      const refused = await update({ id: token.id, status: 1 }, true);
      expect(refused.response.status).toBe(400);
      expect(refused.error).toEqual({ success: false, message: tokenMessages.exhaustedCannotEnable });
      expect((await read(token.id)).status).toBe(4);
      const topUp = await update({ id: token.id, remain_quota: 500_000, status: 1 });
      expect(topUp.data?.data).toMatchObject({ status: 1, remain_quota: 500_000 });
      await updateTokenStatus(database.db, token.id, 4);
      const unlimited = await update({ id: token.id, remain_quota: 0, unlimited_quota: true, status: 1 });
      expect(unlimited.data?.data).toMatchObject({ status: 1, unlimited_quota: true });
    });
  });
});
