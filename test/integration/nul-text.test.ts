import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// A NUL character in a management request's text is refused with the same answer on both databases, naming the
// field, and nothing is written. PostgreSQL cannot hold it (it answered 400 from the refused statement, without the
// field); SQLite stored it, or searched with it, and answered 200.
const testDatabases = await openTestDatabases();

const refusal = (field: string) => ({
  success: false,
  message: `${field} must not contain the NUL character (\\u0000).`,
});

describe.each(testDatabases)("NUL characters in management requests on $name", ({ database }) => {
  let gateway: TestGateway;
  let alice: SignedInUser;

  beforeAll(async () => {
    gateway = await startTestGateway({ database });
    alice = await createSignedInUser(gateway);
  });
  afterAll(async () => gateway.close());

  const tokenNames = async () => {
    const listed = await alice.client.management.GET("/api/token/", { params: { query: { size: 100 } } });
    expect(listed.response.status).toBe(200);
    return listed.data!.data.items.map((token) => token.name);
  };

  it("refuses a token named with NUL and creates nothing", async () => {
    const before = await tokenNames();
    const created = await alice.client.management.POST("/api/token/", { body: { name: "build\u0000bot" } });
    expect([created.response.status, created.error]).toEqual([400, refusal("name")]);
    expect(await tokenNames()).toEqual(before);
  });

  it("refuses a search keyword with NUL (a query parameter)", async () => {
    const searched = await alice.client.management.GET("/api/token/search", {
      params: { query: { keyword: "bu\u0000ild" } },
    });
    expect([searched.response.status, searched.error]).toEqual([400, refusal("keyword")]);
  });

  it("refuses a sign-in with NUL in the username, before any lookup", async () => {
    const signedIn = await gateway.clientFor({}).management.POST("/api/user/login", {
      body: { username: `${alice.username}\u0000`, password: alice.password },
    });
    expect([signedIn.response.status, signedIn.error]).toEqual([400, refusal("username")]);
  });

  it("refuses a display name with NUL and keeps the old one", async () => {
    const updated = await alice.client.management.PUT("/api/user/self", {
      body: { display_name: "Alice\u0000" },
    });
    expect([updated.response.status, updated.error]).toEqual([400, refusal("display_name")]);
    const self = await alice.client.management.GET("/api/user/self");
    expect(self.data!.data.display_name).toBe(alice.user.display_name);
  });

  it("names the item of a list and refuses a model path with NUL", async () => {
    const channel = await gateway.client.management.POST("/api/channel/", {
      body: { name: "nul", type: "openai", base_url: "https://example.com", key: "k", models: ["m", "m\u0000"] },
    });
    expect([channel.response.status, channel.error]).toEqual([400, refusal("models[1]")]);
    const price = await gateway.client.management.PUT("/api/pricing/{model}", {
      params: { path: { model: "m\u0000x" } },
      body: { output: 1 },
    });
    expect([price.response.status, price.error]).toEqual([400, refusal("model")]);
  });

  it("refuses a key holding NUL by the object that holds it", async () => {
    const channel = await gateway.client.management.POST("/api/channel/", {
      body: {
        name: "nul-mapping",
        type: "openai",
        base_url: "https://example.com",
        key: "k",
        models: ["m"],
        model_mapping: { "m\u0000": "n" },
      },
    });
    expect([channel.response.status, channel.error]).toEqual([400, refusal("model_mapping")]);
  });

  it("names a long key by its first 64 characters", async () => {
    const longName = "k".repeat(5000);
    const channel = await gateway.client.management.POST("/api/channel/", {
      body: {
        name: "nul-long-key",
        type: "openai",
        base_url: "https://example.com",
        key: "k",
        models: ["m"],
        model_mapping: { [longName]: "n\u0000" },
      },
    });
    expect([channel.response.status, channel.error]).toEqual([400, refusal(`model_mapping.${"k".repeat(64)}…`)]);
  });
});

// On the generation surfaces a caller's text goes to the upstream as it is; only an id the gateway looks up is
// checked: one holding NUL names nothing, so it is not found on both databases. PostgreSQL refused the lookup (400
// `invalid_text`) where SQLite found nothing.
describe.each(testDatabases)("NUL characters in ids the relay looks up, on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "nul-upstream-key" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          { name: "o", type: "openai", base_url: upstream.url, key: "nul-upstream-key", models: ["gpt-4o-mini"] },
        ],
        pricing: { "gpt-4o-mini": { input: 1, output: 2 } },
      },
    });
    apiKey = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it("answers a video task id with NUL as not found", async () => {
    for (const path of ["/v1/videos/video_1%00x", "/v1/video/generations/video_1%00x"]) {
      const answer = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(answer.status, path).toBe(404);
      expect(await answer.json()).toMatchObject({ error: { code: "not_found", param: "task_id" } });
    }
  });

  it("routes a previous_response_id with NUL as one no channel made, and the upstream answers for it", async () => {
    const answer = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", input: "hi", previous_response_id: "resp_1\u0000x" }),
    });
    // The fake, as OpenAI, does not know the id: its 400 comes back, on both databases.
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: { code: "invalid_request", message: expect.stringContaining("Previous response with id") },
    });
    expect(upstream.requests.length).toBeGreaterThan(0);
  });
});
