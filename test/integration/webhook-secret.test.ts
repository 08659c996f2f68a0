import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findWebhookSecret } from "../../src/store/webhook-secrets/find-webhook-secret.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("POST /api/user/self/webhook-secret on $name", ({ database }) => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ database });
  });
  afterAll(async () => gateway.close());

  it("creates the user's signing secret, stores it encrypted, and rotates it", async () => {
    const alice = await createSignedInUser(gateway);
    const first = await alice.client.management.POST("/api/user/self/webhook-secret");
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("cache-control")).toBe("no-store");
    expect(first.data).toEqual({
      success: true,
      message: "",
      data: { secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) },
    });
    const secret = first.data!.data.secret;
    const stored = await findWebhookSecret(database.db, alice.user.id);
    expect(stored).toBeDefined();
    expect(stored).not.toContain(secret.slice(6));
    expect(gateway.gateway.context.keyCipher.decrypt(stored as string)).toBe(secret);

    const second = await alice.client.management.POST("/api/user/self/webhook-secret");
    expect(second.data?.data.secret).toMatch(/^whsec_/);
    expect(second.data?.data.secret).not.toBe(secret);
    expect(
      gateway.gateway.context.keyCipher.decrypt((await findWebhookSecret(database.db, alice.user.id)) as string),
    ).toBe(second.data?.data.secret);
  });

  it("needs a signed-in user", async () => {
    const anonymous = await gateway.clientFor({}).management.POST("/api/user/self/webhook-secret");
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toMatchObject({ success: false });
  });
});
