import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";

const testDatabases = await openTestDatabases();
const startTime = 1_800_000_000;
const signInMessage = "Not signed in or the access token is invalid. Send Authorization: Bearer <USER_TOKEN>.";

describe.each(testDatabases)("users and sign-in on $name", ({ database }) => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ database, now: () => startTime });
  });
  afterAll(async () => gateway.close());

  const anonymous = () => gateway.clientFor({}).management;

  it("lets root create a user who then signs in and reads themself", async () => {
    const created = await gateway.client.management.POST("/api/user/", {
      body: { username: "alice", password: "correct-horse-battery", display_name: "Alice", group: "vip" },
    });
    expect(created.response.status).toBe(200);
    const alice = {
      id: expect.any(Number),
      username: "alice",
      display_name: "Alice",
      role: "user",
      group: "vip",
      status: 1,
      created_time: startTime,
      // A new account's wallet starts limited, at users.initial_quota (0 unless configured).
      quota: 0,
      used_quota: 0,
      quota_unlimited: false,
      allowed_groups: [],
    };
    expect(created.data).toEqual({ success: true, message: "", data: alice });
    expect(JSON.stringify(created.data)).not.toContain("correct-horse-battery");

    const login = await anonymous().POST("/api/user/login", {
      body: { username: "alice", password: "correct-horse-battery" },
    });
    expect(login.response.status).toBe(200);
    expect(login.response.headers.get("cache-control")).toBe("no-store");
    expect(login.data).toEqual({ success: true, message: "", data: { ...alice, access_token: expect.any(String) } });
    const accessToken = login.data!.data.access_token;
    expect(accessToken).not.toMatch(/^sk-/);

    const self = await gateway.clientFor({ accessToken }).management.GET("/api/user/self");
    expect(self.data).toEqual({ success: true, message: "", data: alice });

    // Signing in again (another device) gives the same token and does not sign the first one out.
    const again = await anonymous().POST("/api/user/login", {
      body: { username: "alice", password: "correct-horse-battery" },
    });
    expect(again.data?.data.access_token).toBe(accessToken);
    expect((await gateway.clientFor({ accessToken }).management.GET("/api/user/self")).response.status).toBe(200);
  });

  it("defaults role to user, group to default and display_name to the username", async () => {
    const created = await gateway.client.management.POST("/api/user/", {
      body: { username: "plain-user", password: "password-1234" },
    });
    expect(created.data?.data).toMatchObject({
      username: "plain-user",
      display_name: "plain-user",
      role: "user",
      group: "default",
      status: 1,
    });
  });

  it("answers a wrong password and an unknown user alike: 401 with the same message", async () => {
    const { username } = await createSignedInUser(gateway);
    const wrongPassword = await anonymous().POST("/api/user/login", {
      body: { username, password: "not-the-password" },
    });
    const unknownUser = await anonymous().POST("/api/user/login", {
      body: { username: "nobody-by-this-name", password: "not-the-password" },
    });
    expect(wrongPassword.response.status).toBe(401);
    expect(unknownUser.response.status).toBe(401);
    expect(wrongPassword.error).toEqual({ success: false, message: "Invalid username or password." });
    expect(unknownUser.error).toEqual(wrongPassword.error);
  });

  it("refuses a sign-in without username or password as a parameter error", async () => {
    const missing = await anonymous().POST("/api/user/login", { body: { username: "alice" } as never });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.message).toMatch(/^Parameter error/);
  });

  it("shows root itself through the admin token", async () => {
    const self = await gateway.client.management.GET("/api/user/self");
    expect(self.data?.data).toMatchObject({ username: "root", role: "root", status: 1 });
  });

  it("answers 401 without an access token, with a wrong one, or with another scheme", async () => {
    const missing = await anonymous().GET("/api/user/self");
    expect(missing.response.status).toBe(401);
    expect(missing.error).toEqual({ success: false, message: signInMessage });
    const wrong = await gateway
      .clientFor({ accessToken: "not-a-real-access-token" })
      .management.GET("/api/token/", { params: { query: {} } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.error).toEqual({ success: false, message: signInMessage });
    const basic = await anonymous().GET("/api/user/self", {
      headers: { Authorization: `Basic ${gateway.adminToken}` },
    });
    expect(basic.response.status).toBe(401);
    expect(basic.error).toEqual({ success: false, message: signInMessage });
    // An API key is not an access token.
    const apiKey = await anonymous().GET("/api/user/self", {
      headers: { Authorization: `Bearer sk-${"a".repeat(48)}` },
    });
    expect(apiKey.response.status).toBe(401);
  });

  describe("creating users", () => {
    it("refuses an ordinary user (403)", async () => {
      const user = await createSignedInUser(gateway);
      const refused = await user.client.management.POST("/api/user/", {
        body: { username: "made-by-user", password: "password-1234" },
      });
      expect(refused.response.status).toBe(403);
      expect(refused.error).toEqual({ success: false, message: "This operation requires an administrator." });
    });

    it("lets an administrator create users but not administrators (403)", async () => {
      const admin = await createSignedInUser(gateway, { role: "admin" });
      expect(admin.user.role).toBe("admin");
      const user = await admin.client.management.POST("/api/user/", {
        body: { username: "made-by-admin", password: "password-1234" },
      });
      expect(user.data?.data).toMatchObject({ username: "made-by-admin", role: "user" });
      const refused = await admin.client.management.POST("/api/user/", {
        body: { username: "admin-by-admin", password: "password-1234", role: "admin" },
      });
      expect(refused.response.status).toBe(403);
      expect(refused.error).toEqual({ success: false, message: "Only root can create administrators." });
      const login = await anonymous().POST("/api/user/login", {
        body: { username: "admin-by-admin", password: "password-1234" },
      });
      expect(login.response.status).toBe(401);
    });

    it("refuses a username that is taken (409)", async () => {
      const first = await gateway.client.management.POST("/api/user/", {
        body: { username: "duplicate", password: "password-1234" },
      });
      expect(first.response.status).toBe(200);
      const second = await gateway.client.management.POST("/api/user/", {
        body: { username: "duplicate", password: "other-password" },
      });
      expect(second.response.status).toBe(409);
      expect(second.error?.success).toBe(false);
      expect(second.error?.message).toContain("duplicate");
      expect(second.error?.message).toMatch(/taken/);
      // The first account keeps its password.
      expect(
        (await anonymous().POST("/api/user/login", { body: { username: "duplicate", password: "password-1234" } }))
          .response.status,
      ).toBe(200);
    });

    it("refuses a short password, a short username and the role root as parameter errors", async () => {
      for (const body of [
        { username: "short-password", password: "1234567" },
        { username: "ab", password: "password-1234" },
        { username: "wants-root", password: "password-1234", role: "root" },
      ]) {
        const refused = await gateway.client.management.POST("/api/user/", { body: body as never });
        expect(refused.response.status).toBe(400);
        expect(refused.error?.message).toMatch(/^Parameter error/);
      }
    });

    it("keeps tokens apart between users", async () => {
      const first = await createSignedInUser(gateway);
      const second = await createSignedInUser(gateway);
      await first.client.management.POST("/api/token/", { body: { name: "mine" } });
      const secondList = await second.client.management.GET("/api/token/", { params: { query: {} } });
      expect(secondList.data?.data).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
    });
  });
});
