import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";

// What administrators do to accounts besides wallets: delete (soft), reset passwords, change roles; and what users
// change on their own: display name and password.
const testDatabases = await openTestDatabases();

describe.each(testDatabases)("user administration on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [{ name: "main", type: "openai", base_url: upstream.url, key: "k1", models: ["model-x"] }],
        pricing: { "model-x": { input: 0, output: 1 } },
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  const chatStatus = (key: string) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "model-x", messages: [{ role: "user", content: "hi" }] }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  const signIn = (username: string, password: string) =>
    gateway.clientFor({}).management.POST("/api/user/login", { body: { username, password } });
  const lastAudit = async (action: string) =>
    (await gateway.client.management.GET("/api/audit", { params: { query: { action } } })).data!.data.items[0];

  it("deletes a user softly: their keys are refused at once, they cannot sign in, and they leave the list while their history stays", async () => {
    const alice = await createSignedInUser(gateway);
    const token = await createTokenForTest(alice.client, { unlimited_quota: true });
    const key = await revealApiKey(alice.client, token.id);
    expect(await chatStatus(key)).toBe(200);

    const deleted = await gateway.client.management.DELETE("/api/user/{id}", {
      params: { path: { id: alice.user.id } },
    });
    expect(deleted.data).toEqual({ success: true, message: "" });
    expect(await chatStatus(key)).toBe(403);
    expect((await signIn(alice.username, alice.password)).response.status).toBe(401);
    expect((await alice.client.management.GET("/api/user/self")).response.status).toBe(401);
    const listed = await gateway.client.management.GET("/api/user/", {
      params: { query: { keyword: alice.username } },
    });
    expect(listed.data!.data.total).toBe(0);
    const logs = await gateway.client.management.GET("/api/log/", { params: { query: { username: alice.username } } });
    expect(logs.data!.data.items.length).toBeGreaterThan(0);
    expect(await lastAudit("user.delete")).toMatchObject({
      target: `user:${alice.user.id}`,
      before: expect.objectContaining({ username: alice.username }),
      after: null,
    });

    const again = await gateway.client.management.DELETE("/api/user/{id}", {
      params: { path: { id: alice.user.id } },
    });
    expect(again.response.status).toBe(404);
    const update = await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: alice.user.id } },
      body: { status: 1 },
    });
    expect(update.response.status).toBe(404);
  });

  it("lets only root delete administrators, and nobody delete their own account", async () => {
    const admin = await createSignedInUser(gateway, { role: "admin" });
    const otherAdmin = await createSignedInUser(gateway, { role: "admin" });
    const byAdmin = await admin.client.management.DELETE("/api/user/{id}", {
      params: { path: { id: otherAdmin.user.id } },
    });
    expect([byAdmin.response.status, byAdmin.error?.message]).toEqual([
      403,
      "Only root can change an administrator or root.",
    ]);
    const self = (await gateway.client.management.GET("/api/user/self")).data!.data;
    const ownDeletion = await gateway.client.management.DELETE("/api/user/{id}", {
      params: { path: { id: self.id } },
    });
    expect([ownDeletion.response.status, ownDeletion.error?.message]).toEqual([
      403,
      "You cannot delete your own account.",
    ]);
    const user = await createSignedInUser(gateway);
    const byUser = await user.client.management.DELETE("/api/user/{id}", {
      params: { path: { id: otherAdmin.user.id } },
    });
    expect(byUser.response.status).toBe(403);
  });

  it("resets a password for an administrator's user: the old password and access token stop working, keys keep working", async () => {
    const bob = await createSignedInUser(gateway);
    const token = await createTokenForTest(bob.client, { unlimited_quota: true });
    const key = await revealApiKey(bob.client, token.id);
    const reset = await gateway.client.management.PUT("/api/user/{id}/password", {
      params: { path: { id: bob.user.id } },
      body: { password: "a brand new password" },
    });
    expect(reset.data).toEqual({ success: true, message: "" });
    expect((await bob.client.management.GET("/api/user/self")).response.status).toBe(401);
    expect((await signIn(bob.username, bob.password)).response.status).toBe(401);
    expect((await signIn(bob.username, "a brand new password")).response.status).toBe(200);
    expect(await chatStatus(key)).toBe(200);
    const audit = await lastAudit("user.reset_password");
    expect(audit).toMatchObject({ target: `user:${bob.user.id}`, after: { username: bob.username } });
    expect(JSON.stringify(audit)).not.toContain("a brand new password");

    const tooShort = await gateway.client.management.PUT("/api/user/{id}/password", {
      params: { path: { id: bob.user.id } },
      body: { password: "short" },
    });
    expect(tooShort.response.status).toBe(400);
    const byUser = await bob.client.management.PUT("/api/user/{id}/password", {
      params: { path: { id: bob.user.id } },
      body: { password: "another long password" },
    });
    expect(byUser.response.status).toBe(401);
  });

  it("refuses an administrator's reset of their own password, which would sign them out without the current one", async () => {
    const self = (await gateway.client.management.GET("/api/user/self")).data!.data;
    const ownReset = await gateway.client.management.PUT("/api/user/{id}/password", {
      params: { path: { id: self.id } },
      body: { password: "a password of my own" },
    });
    expect([ownReset.response.status, ownReset.error?.message]).toEqual([
      403,
      "Change your own password with PUT /api/user/self (it asks for the current one).",
    ]);
    expect((await gateway.client.management.GET("/api/user/self")).response.status).toBe(200);
  });

  it("lets a user change their display name, and their password only with the current one", async () => {
    const carol = await createSignedInUser(gateway);
    const renamed = await carol.client.management.PUT("/api/user/self", { body: { display_name: "Carol C." } });
    expect(renamed.data!.data).toMatchObject({ username: carol.username, display_name: "Carol C." });

    const withoutOld = await carol.client.management.PUT("/api/user/self", { body: { password: "new password 1" } });
    expect([withoutOld.response.status, withoutOld.error?.message]).toEqual([
      400,
      "old_password is required to change the password.",
    ]);
    const wrongOld = await carol.client.management.PUT("/api/user/self", {
      body: { password: "new password 1", old_password: "not it" },
    });
    expect([wrongOld.response.status, wrongOld.error?.message]).toEqual([
      400,
      "old_password is not your current password.",
    ]);
    const changed = await carol.client.management.PUT("/api/user/self", {
      body: { password: "new password 1", old_password: carol.password },
    });
    expect(changed.response.status).toBe(200);
    expect((await signIn(carol.username, carol.password)).response.status).toBe(401);
    expect((await signIn(carol.username, "new password 1")).response.status).toBe(200);
    // Still signed in where the change was made.
    expect((await carol.client.management.GET("/api/user/self")).response.status).toBe(200);
  });

  it("lets only root change roles, never their own", async () => {
    const dave = await createSignedInUser(gateway);
    const admin = await createSignedInUser(gateway, { role: "admin" });
    const byAdmin = await admin.client.management.PUT("/api/user/{id}", {
      params: { path: { id: dave.user.id } },
      body: { role: "admin" },
    });
    expect([byAdmin.response.status, byAdmin.error?.message]).toEqual([403, "Only root can change a user's role."]);

    const promoted = await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: dave.user.id } },
      body: { role: "admin" },
    });
    expect(promoted.data!.data.role).toBe("admin");
    expect((await dave.client.management.GET("/api/user/")).response.status).toBe(200);
    const demoted = await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: dave.user.id } },
      body: { role: "user" },
    });
    expect(demoted.data!.data.role).toBe("user");
    expect((await dave.client.management.GET("/api/user/")).response.status).toBe(403);

    const self = (await gateway.client.management.GET("/api/user/self")).data!.data;
    const ownRole = await gateway.client.management.PUT("/api/user/{id}", {
      params: { path: { id: self.id } },
      body: { role: "admin" },
    });
    expect([ownRole.response.status, ownRole.error?.message]).toEqual([
      403,
      "You cannot change your own status, role or wallet limit.",
    ]);
    expect(await lastAudit("user.update")).toMatchObject({
      target: `user:${dave.user.id}`,
      before: expect.objectContaining({ role: "admin" }),
      after: expect.objectContaining({ role: "user" }),
    });
  });
});
