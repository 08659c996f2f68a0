import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { DEFAULT_TEST_DATABASE_URL, openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Per-key rate limits (issue 16): in memory on one instance, and shared through Redis by two instances.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const testDatabases = await openTestDatabases();

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: { message: string; type?: string; code: string | number; status?: string } };
}

async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: (await response.json()) as Answer["body"],
  };
}

const chat = (gateway: TestGateway, key: string, maxTokens = 5) =>
  postJson(
    `${gateway.url}/v1/chat/completions`,
    { authorization: `Bearer ${key}` },
    { model: "model-a", messages: [{ role: "user", content: "hello world" }], max_tokens: maxTokens },
  );

const channels = (openai: FakeUpstream, native?: FakeUpstream) => ({
  channels: [
    { name: "main", type: "openai", base_url: openai.url, key: "upstream-secret", models: ["model-a"] },
    ...(native
      ? [
          {
            name: "native",
            type: "native",
            base_url: native.url,
            key: "upstream-secret",
            models: ["gmx-2.5-flash", "gmx-3.8-flash-tts"],
          },
        ]
      : []),
  ],
  pricing: { "model-a": { input: 2, output: 4 }, "gmx-2.5-flash": { input: 2, output: 4 } },
});

/** Three answers, then two 429s with a Retry-After within the minute, and only the three answers billed. */
async function expectThreeOfFive(gateways: TestGateway[], key: string, tokenId: number): Promise<void> {
  const before = await readToken(gateways[0]!, tokenId);
  const answers: Answer[] = [];
  for (let index = 0; index < 5; index += 1) answers.push(await chat(gateways[index % gateways.length]!, key));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
  for (const refused of answers.slice(3)) {
    expect(refused.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded" });
    expect(refused.body.error!.message).toContain("3 requests per minute");
    const retryAfter = Number(refused.retryAfter);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  }
  const after = await readToken(gateways[0]!, tokenId);
  const firstCost = 11; // (5 prompt × 2 + 3 completion × 4) / 1e6 USD × 500,000 = 11 units, as in openai-relay
  expect(after.used_quota - before.used_quota).toBe(3 * firstCost);
  expect(before.remain_quota - after.remain_quota).toBe(3 * firstCost);
}

/**
 * A user's rate-limited key answers two chats; GET /api/token/rates (read through `reader`) then shows it with 2
 * requests and the 16 billed tokens (5 prompt + 3 completion each), not their key without limits, and not another
 * user's limited key.
 */
async function expectCurrentRates(gateways: TestGateway[], reader: TestGateway): Promise<void> {
  const owner = await createSignedInUser(gateways[0]!);
  const stranger = await createSignedInUser(gateways[0]!);
  const asOwner = { ...gateways[0]!, client: owner.client };
  const limited = await createApiKey(asOwner, { name: "limited", unlimitedQuota: true, rpmLimit: 5, tpmLimit: 10_000 });
  const unlimited = await createApiKey(asOwner, { name: "no-limits", unlimitedQuota: true });
  const idle = await createApiKey(asOwner, { name: "idle", unlimitedQuota: true, tpmLimit: 500 });
  await createApiKey({ ...gateways[0]!, client: stranger.client }, { unlimitedQuota: true, rpmLimit: 5 });
  for (let index = 0; index < 2; index += 1)
    expect((await chat(gateways[index % gateways.length]!, limited.key)).status).toBe(200);
  expect((await chat(gateways[0]!, unlimited.key)).status).toBe(200);
  const answer = await reader.clientFor({ accessToken: owner.accessToken }).management.GET("/api/token/rates");
  expect(answer.response.status).toBe(200);
  expect(answer.data?.data.items).toEqual([
    { token_id: idle.id, name: "idle", rpm_limit: 0, tpm_limit: 500, requests_this_minute: 0, tokens_this_minute: 0 },
    {
      token_id: limited.id,
      name: "limited",
      rpm_limit: 5,
      tpm_limit: 10_000,
      requests_this_minute: 2,
      tokens_this_minute: 16,
    },
  ]);
  // Reading counts nothing: the same answer again.
  const again = await reader.clientFor({ accessToken: owner.accessToken }).management.GET("/api/token/rates");
  expect(again.data?.data.items).toEqual(answer.data?.data.items);
  expect((await reader.clientFor({}).management.GET("/api/token/rates")).response.status).toBe(401);
}

/**
 * A request reserving more than the whole TPM limit runs in an empty window and counts the whole limit until it
 * is settled; once corrected to its billed tokens a small request fits, another large one does not.
 */
async function expectTpmSequence(gateways: TestGateway[], key: string, tokenId: number): Promise<void> {
  const first = await chat(gateways[0]!, key, 5_000);
  expect(first.status).toBe(200);
  const afterFirst = await readToken(gateways[0]!, tokenId);
  const large = await chat(gateways[1 % gateways.length]!, key, 5_000);
  expect(large.status).toBe(429);
  expect(large.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limit_exceeded" });
  expect(large.body.error!.message).toContain("1000 tokens per minute");
  expect(Number(large.retryAfter)).toBeGreaterThanOrEqual(1);
  // Nothing reserved or billed for the refused one.
  expect(await readToken(gateways[0]!, tokenId)).toMatchObject({
    remain_quota: afterFirst.remain_quota,
    used_quota: afterFirst.used_quota,
  });
  const small = await chat(gateways[0]!, key, 5);
  expect(small.status).toBe(200);
}

describe.each(testDatabases.filter(({ name }) => name === "sqlite"))(
  "per-key rate limits in memory on $name",
  ({ database }) => {
    let openai: FakeUpstream;
    let native: FakeUpstream;
    let gateway: TestGateway;

    beforeAll(async () => {
      openai = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
      native = await startFakeNativeServer({ apiKey: "upstream-secret" });
      gateway = await startTestGateway({ database, configFile: channels(openai, native) });
    });
    afterAll(async () => {
      await gateway.close();
      await openai.close();
      await native.close();
    });

    it("with rpm_limit 3 answers three of five requests in a minute and refuses two with Retry-After, billing three", async () => {
      const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000, rpmLimit: 3 });
      expect((await readToken(gateway, id)).rpm_limit).toBe(3);
      await expectThreeOfFive([gateway], key, id);
    });

    it("counts reserved tokens against tpm_limit and corrects them to the billed ones", async () => {
      const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000, tpmLimit: 1_000 });
      await expectTpmSequence([gateway], key, id);
    });

    it("refuses on /v1beta in the native envelope (429, RESOURCE_EXHAUSTED) with Retry-After", async () => {
      const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000, rpmLimit: 1 });
      const generate = () =>
        postJson(
          `${gateway.url}/v1beta/models/gmx-2.5-flash:generateContent`,
          { "x-goog-api-key": key },
          { contents: [{ role: "user", parts: [{ text: "hello" }] }] },
        );
      expect((await generate()).status).toBe(200);
      const before = await readToken(gateway, id);
      const refused = await generate();
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
      expect(refused.body.error!.message).toContain("1 requests per minute");
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(await readToken(gateway, id)).toMatchObject({ used_quota: before.used_quota });
    });

    it("counts the voice list (routed upstream, never billed) as a request", async () => {
      const { key } = await createApiKey(gateway, { remainQuota: 1_000_000, rpmLimit: 1 });
      const voices = () =>
        fetch(`${gateway.url}/v1beta/voices?model=gmx-3.8-flash-tts`, { headers: { "x-goog-api-key": key } });
      expect((await voices()).status).toBe(200);
      const refused = await voices();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as Answer["body"]).error).toMatchObject({
        code: 429,
        status: "RESOURCE_EXHAUSTED",
      });
    });

    it("keeps limits through update and lets 0 mean no limit", async () => {
      const { id, key } = await createApiKey(gateway, { remainQuota: 1_000_000, rpmLimit: 1 });
      expect((await chat(gateway, key)).status).toBe(200);
      expect((await chat(gateway, key)).status).toBe(429);
      const updated = await gateway.client.management.PUT("/api/token/", { body: { id, rpm_limit: 0, tpm_limit: 0 } });
      expect(updated.data?.data).toMatchObject({ rpm_limit: 0, tpm_limit: 0 });
      // The key cache keeps a token briefly; the update through this instance invalidates it.
      expect((await chat(gateway, key)).status).toBe(200);
    });

    it("answers a user's rate-limited keys with this minute's requests and tokens, and no other user's", async () => {
      await expectCurrentRates([gateway], gateway);
    });
  },
);

describe("per-key rate limits shared by two instances through Redis", () => {
  const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
  // Other test runs use the same Redis at the same time: this run's keys live under their own prefix.
  const redisKeyPrefix = `test-${crypto.randomBytes(6).toString("hex")}`;
  const sharedDatabase = testDatabases.find(({ name }) => name === "postgres")!.database;
  let openai: FakeUpstream;
  let secondPool: GatewayDatabase;
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    openai = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(sharedDatabase.db))
      .rows[0]!.schema;
    secondPool = await openDatabase(postgresUrl, { postgresSchema: schema });
    const environment = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisKeyPrefix, GATEWAY_ADMIN_TOKEN: adminToken };
    first = await startTestGateway({ database: sharedDatabase, configFile: channels(openai), environment });
    second = await startTestGateway({ database: secondPool, configFile: channels(openai), environment });
    // Both instances seat the same root token; clients must use it.
    first = { ...first, client: first.clientFor({ accessToken: adminToken }) };
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await secondPool?.close();
    await openai?.close();
  });

  it("with rpm_limit 3 gives three answers and two 429s whichever instance the requests hit", async () => {
    const { id, key } = await createApiKey(first, { remainQuota: 1_000_000, rpmLimit: 3 });
    await expectThreeOfFive([first, second], key, id);
  });

  it("shares the TPM window and its correction between the instances", async () => {
    const { id, key } = await createApiKey(first, { remainQuota: 1_000_000, tpmLimit: 1_000 });
    await expectTpmSequence([first, second], key, id);
  });

  it("answers the current minute counted by both instances from either", async () => {
    await expectCurrentRates([first, second], second);
  });
});
