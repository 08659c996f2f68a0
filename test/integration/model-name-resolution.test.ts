import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const suffixes = ["", "-thinking", "-thinking-low", "-nothinking"];
const paths = (model: string) => [
  `/v1beta/models/${model}:generateContent`,
  `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
  `/v1beta/models/${model}:streamGenerateContent`,
  `/v1/models/${model}:generateContent`,
  `/v1/models/${model}:streamGenerateContent?alt=sse`,
];

/** Units at input 10 / output 20 USD per 1M tokens: tokens × price / 1e6 × 500,000, rounded once. */
const unitsAtGemProPrice = (usage: {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
}) =>
  Math.round(
    (usage.promptTokenCount * 10 + ((usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0)) * 20) / 2,
  );

describe.each(testDatabases)("a model name's thinking suffix is priced as it is routed, on $name", ({ database }) => {
  let upstream: FakeNativeUpstream;
  let gateway: TestGateway;

  const post = (path: string, apiKey: string, body: unknown) =>
    fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": apiKey },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    upstream = await startFakeNativeServer({ apiKey: "upstream-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native-gem",
            type: "native",
            base_url: upstream.url,
            key: "upstream-secret",
            models: ["gem-pro"],
            model_mapping: { "gem-pro": "gmx-2.5-pro" },
          },
        ],
        pricing: { "gem-pro": { input: 10, output: 20 } },
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it("refuses every thinking variant of a model a token cannot afford, as it refuses the model, on every path", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 1 });
    for (const suffix of suffixes) {
      for (const path of paths(`gem-pro${suffix}`)) {
        const answer = await post(path, key, { contents: [{ parts: [{ text: "free lunch?" }] }] });
        expect({ path, status: answer.status }).toEqual({ path, status: 402 });
        expect(await answer.json()).toMatchObject({ error: { code: 402 } });
      }
    }
    expect(upstream.requests).toHaveLength(0);
    const token = await readToken(gateway, id);
    expect({ remain: token.remain_quota, used: token.used_quota }).toEqual({ remain: 1, used: 0 });
  });

  it("bills a thinking variant at its base model's price, thoughts as output", async () => {
    const { id, key } = await createApiKey(gateway, { remainQuota: 10_000_000 });
    for (const suffix of suffixes.slice(1)) {
      const before = (await readToken(gateway, id)).remain_quota;
      const answer = await post(`/v1beta/models/gem-pro${suffix}:generateContent`, key, {
        contents: [{ parts: [{ text: "priced like gem-pro" }] }],
      });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { usageMetadata: Parameters<typeof unitsAtGemProPrice>[0] };
      const charged = before - (await readToken(gateway, id)).remain_quota;
      expect(charged).toBeGreaterThan(0);
      expect({ suffix, charged }).toEqual({ suffix, charged: unitsAtGemProPrice(body.usageMetadata) });
      // Routed as gem-pro: the upstream is asked for its mapped name, the suffix turned into thinkingConfig.
      expect(upstream.requests.at(-1)!.path).toBe("/v1beta/models/gmx-2.5-pro:generateContent");
    }
  });

  it("lets a token limited to the base model call its thinking variants, and no other model", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 10_000_000, modelLimits: ["gem-pro"] });
    const variant = await post("/v1beta/models/gem-pro-thinking-low:generateContent", key, {
      contents: [{ parts: [{ text: "limited" }] }],
    });
    expect(variant.status).toBe(200);
    const other = await post("/v1beta/models/gem-flash-thinking:generateContent", key, {
      contents: [{ parts: [{ text: "limited" }] }],
    });
    expect(other.status).toBe(403);
  });
});
