import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { closeChannelBreakers } from "../support/close-channel-breakers.js";

const testDatabases = await openTestDatabases({ postgresPoolSize: 20 });

const chatBody = (model = "model-a", extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model, messages: [{ role: "user", content: "hello world" }], ...extra });

describe.each(testDatabases)("relay retries, failover, cooldown, disconnects and quota on $name", ({ database }) => {
  let primary: FakeUpstream;
  let backup: FakeUpstream;
  let gateway: TestGateway;

  const post = (key: string, body: string, signal?: AbortSignal) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
      signal,
    });

  /** The backup channel answered after one failed try on the primary, and the request was billed once. */
  const expectServedByBackupAndBilledOnce = async (tokenId: number, response: Response) => {
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
    ).toBe("Echo: hello world");
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    // completion 3 tokens × 4 USD per 1M = 12 micro-USD = 6 units, charged once
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(994);
  };

  /** Both channels' answers break off after their headers: a 502 `bad_response` in JSON with this message. */
  const expectBadResponseWhenBothBreak = async (key: string, body: string, message: string) => {
    primary.reset();
    backup.reset();
    primary.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    backup.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    const failed = await post(key, body);
    expect(failed.status).toBe(502);
    expect(failed.headers.get("content-type")).toMatch(/^application\/json/);
    const requestId = failed.headers.get("x-request-id");
    expect(await failed.json()).toEqual({
      error: {
        message: `${message} (request id ${requestId})`,
        type: "upstream_error",
        code: "bad_response",
        param: null,
      },
    });
  };

  beforeAll(async () => {
    primary = await startFakeOpenaiServer();
    backup = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "primary",
            type: "openai",
            base_url: primary.url,
            key: "k1",
            models: ["model-a", "model-x", "speech-1"],
            priority: 10,
          },
          {
            name: "backup",
            type: "openai",
            base_url: backup.url,
            key: "k2",
            models: ["model-a", "speech-1"],
            priority: 0,
          },
          { name: "vip-only", type: "openai", base_url: backup.url, key: "k3", models: ["model-v"], groups: ["vip"] },
        ],
        groups: { default: { ratio: 1 }, vip: { ratio: 2 } },
        auto_groups: ["default", "vip"],
        pricing: {
          "model-a": { input: 0, output: 4 },
          "model-x": { input: 0, output: 4 },
          "model-v": { input: 0, output: 4 },
          "speech-1": { input: 10 },
        },
        relay: { max_attempts: 3, cooldown_after_failures: 2, cooldown_seconds: 600 },
        // reservations of 50 output tokens × 4 USD/1M = 100 units when a request sets no max_tokens
        default_max_output_tokens: 50,
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await primary.close();
    await backup.close();
  });
  beforeEach(() => {
    primary.reset();
    backup.reset();
    // Each test starts with closed breakers.
    closeChannelBreakers(gateway);
  });

  it("fails over to the next channel on a 500 before any byte was sent, and bills once", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ status: 500, times: 1 });
    await expectServedByBackupAndBilledOnce(id, await post(key, chatBody()));
  });

  it("retries a connection reset and a 429, but answers a 400 at once without trying other channels", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ resetBeforeHeaders: true, times: 1 });
    expect((await post(key, chatBody())).status).toBe(200);
    expect(backup.requests).toHaveLength(1);

    primary.reset();
    backup.reset();
    primary.setFaults({
      status: 400,
      body: { error: { message: "bad thing", type: "invalid_request_error", code: "bad" } },
      times: 1,
    });
    const rejected = await post(key, chatBody());
    expect(rejected.status).toBe(400);
    expect(await rejected.json()).toEqual({
      error: {
        message: "Upstream error (400): bad thing",
        type: "invalid_request_error",
        code: "invalid_request",
        param: null,
      },
    });
    expect(backup.requests).toHaveLength(0);
  });

  it("fails over when a JSON answer breaks off after its headers, and bills only the answer delivered", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    await expectServedByBackupAndBilledOnce(id, await post(key, chatBody()));

    // With no channel left to try, the broken answer is a 502 in the OpenAI envelope and costs nothing.
    await expectBadResponseWhenBothBreak(key, chatBody(), "The upstream answer broke off before it was complete.");
    expect((await readToken(gateway, id)).remain_quota).toBe(994);
  });

  it("fails over when speech audio breaks off after its headers, and bills the delivered audio once", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    const response = await fetch(`${gateway.url}/v1/audio/speech`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "speech-1", voice: "alloy", input: "hello world", response_format: "wav" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 4)
        .toString("latin1"),
    ).toBe("RIFF");
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    // 11 input characters × 10 USD per 1M = 110 micro-USD = 55 units, charged once
    expect((await readToken(gateway, id)).remain_quota).toBe(945);
  });

  it("refunds the whole reservation when every channel fails, and answers 502 in the OpenAI envelope", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ status: 503, times: 1 });
    backup.setFaults({ status: 502, times: 1 });
    const response = await post(key, chatBody());
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe("upstream_error");
    expect((await readToken(gateway, id)).remain_quota).toBe(1000);
  });

  it("cools a channel down after repeated failures and sends traffic to the next one", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 10_000 });
    primary.setFaults({ status: 500 });
    await post(key, chatBody("model-a"));
    await post(key, chatBody("model-a"));
    expect(primary.requests).toHaveLength(2);
    primary.reset();
    const response = await post(key, chatBody("model-a"));
    expect(response.status).toBe(200);
    expect(primary.requests).toHaveLength(0);
  });

  it("answers 503 with Retry-After, without calling upstream, while every channel of a served model cools down", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 10_000 });
    primary.setFaults({ status: 500 });
    // model-x is served by the primary alone: two failures cool it down for 600 s.
    await post(key, chatBody("model-x"));
    await post(key, chatBody("model-x"));
    const callsWhileFailing = primary.requests.length;
    const refused = await post(key, chatBody("model-x"));
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(590);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(600);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("model-x");
    expect(primary.requests).toHaveLength(callsWhileFailing);
    // A served model whose other channel is ready is still served.
    primary.reset();
    expect((await post(key, chatBody("model-a"))).status).toBe(200);
  });

  it("fails over a stream that breaks before its first event, and answers in JSON when no channel is left", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    const served = await post(key, chatBody("model-a", { stream: true }));
    expect(served.status).toBe(200);
    const events = await served.text();
    expect(events).toContain('"content":"Echo:');
    expect(events).not.toContain('"error"');
    expect(events.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    await expect.poll(async () => (await readToken(gateway, id)).remain_quota, { timeout: 5000 }).toBe(994);

    await expectBadResponseWhenBothBreak(
      key,
      chatBody("model-a", { stream: true }),
      "The upstream stream broke off before its first event.",
    );
    expect((await readToken(gateway, id)).remain_quota).toBe(994);
  });

  it("aborts the upstream call when the client leaves mid-stream and bills what was streamed", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1000 });
    primary.setFaults({ stallAfterChunks: 3, times: 1 });
    const controller = new AbortController();
    const response = await post(key, chatBody("model-x", { stream: true }), controller.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = "";
    while (!received.includes("Echo")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before any content: ${received}`);
      received += new TextDecoder().decode(value);
    }
    controller.abort();
    await expect.poll(() => primary.requests[0]?.aborted, { timeout: 5000 }).toBe(true);
    await gateway.gateway.context.billing.flush();
    // "Echo:" and the role chunk were streamed: billed from the streamed text, the rest of the reservation refunded
    await expect.poll(async () => (await readToken(gateway, id)).remain_quota, { timeout: 5000 }).toBeLessThan(1000);
    expect((await readToken(gateway, id)).remain_quota).toBeGreaterThan(900);
  });

  it("answers a model only another group serves with 404 no available channel, and routes auto tokens through auto_groups", async () => {
    const plain = await createApiKey(gateway, { remainQuota: 1000 });
    const missing = await post(plain.key, chatBody("model-v"));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string; code: string } }).error).toMatchObject({
      message: "no available channel for model model-v",
      code: "model_not_found",
    });

    const auto = await createApiKey(gateway, { remainQuota: 1000, group: "auto" });
    const served = await post(auto.key, chatBody("model-v"));
    expect(served.status).toBe(200);
    // billed under the vip group's ratio 2: 6 units × 2
    expect((await readToken(gateway, auto.id)).remain_quota).toBe(988);
  });

  it("routes and bills a token with an empty group in its owner's group, and refuses the keys of a disabled owner", async () => {
    const vipUser = await createSignedInUser(gateway, { group: "vip" });
    const token = await createTokenForTest(vipUser.client, { remain_quota: 1000 });
    expect(token.group).toBe("");
    const key = await revealApiKey(vipUser.client, token.id);
    const served = await post(key, chatBody("model-v"));
    expect(served.status).toBe(200);
    const billed = await vipUser.client.management.GET("/api/token/{id}", { params: { path: { id: token.id } } });
    // the vip group's ratio 2: 6 units × 2
    expect(billed.data!.data.remain_quota).toBe(988);

    await gateway.gateway.context.database.db
      .updateTable("users")
      .set({ status: 2 })
      .where("id", "=", vipUser.user.id)
      .execute();
    // No user administration API exists yet: the change went to the database directly, past the token cache.
    gateway.gateway.context.tokenCache.invalidateAll();
    const refused = await post(key, chatBody("model-v"));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { message: "The user who owns this API key is disabled.", code: "user_disabled" },
    });
  });

  it("refuses a model outside the token's model limits with 403 naming the model", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 1000, modelLimits: ["model-x"] });
    const response = await post(key, chatBody("model-a"));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "This API key is not allowed to use model model-a.",
    );
  });

  it("refuses a request the balance cannot cover with 402 saying what it could cost", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 5 });
    const response = await post(key, chatBody("model-a", { max_tokens: 3 }));
    expect(response.status).toBe(402);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("insufficient_quota");
    expect(body.error.message).toContain("6 units");
  });

  it("lets exactly 50 of 200 concurrent requests through when the quota covers exactly 50 worst cases", async () => {
    // worst case = 3 output tokens × 4 USD/1M = 6 units = the actual cost of "Echo: hello world" (3 tokens)
    const { id, key } = await createApiKey(gateway, { remainQuota: 300 });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        post(key, chatBody("model-x", { max_tokens: 3 })).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 402)).toBe(true);
    const token = await readToken(gateway, id);
    expect(token.remain_quota).toBe(0);
    expect(token.used_quota).toBe(300);
    expect(token.status).toBe(4);
  });
});
