import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const contents = [
  { role: "user", parts: [{ text: "How many tokens does this sentence cost, exactly?" }] },
  { role: "model", parts: [{ text: "Let me count them for you." }] },
];

describe.each(testDatabases)("POST /v1beta/models/{model}:countTokens on $name", ({ database }) => {
  let upstream: FakeNativeUpstream;
  let gateway: TestGateway;
  let apiKey: string;
  let tokenId: number;

  beforeAll(async () => {
    upstream = await startFakeNativeServer({ apiKey: "upstream-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native-count",
            type: "native",
            base_url: upstream.url,
            key: "upstream-secret",
            models: ["gmx-2.5-flash", "gem-pro"],
            model_mapping: { "gem-pro": "gmx-2.5-pro" },
          },
        ],
        pricing: { "gmx-2.5-flash": { input: 2, output: 4 }, "gem-pro": { input: 10, output: 20 } },
      },
    });
    ({ key: apiKey, id: tokenId } = await createApiKey(gateway, { remainQuota: 1_000_000 }));
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  const post = (path: string, body: unknown, key = apiKey) =>
    fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": key },
      body: JSON.stringify(body),
    });

  it("answers @google/genai's countTokens with the upstream's exact count, on /v1beta and /v1, and bills nothing", async () => {
    const direct = await new GoogleGenAI({
      apiKey: "upstream-secret",
      httpOptions: { baseUrl: upstream.url },
    }).models.countTokens({ model: "gmx-2.5-flash", contents });
    expect(direct.totalTokens).toBeGreaterThan(0);
    upstream.reset();
    const before = await readToken(gateway, tokenId);
    for (const apiVersion of ["v1beta", "v1"]) {
      const sdk = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url, apiVersion } });
      const counted = await sdk.models.countTokens({ model: "gmx-2.5-flash", contents });
      expect(counted.totalTokens).toBe(direct.totalTokens);
    }
    expect(upstream.requests.map((request) => request.path)).toEqual([
      "/v1beta/models/gmx-2.5-flash:countTokens",
      "/v1beta/models/gmx-2.5-flash:countTokens",
    ]);
    expect(upstream.requests[0]!.headers["x-goog-api-key"]).toBe("upstream-secret");
    expect(upstream.requests[0]!.body).toEqual({ contents });
    await gateway.gateway.context.billing.flush();
    const after = await readToken(gateway, tokenId);
    expect({ remain: after.remain_quota, used: after.used_quota }).toEqual({
      remain: before.remain_quota,
      used: before.used_quota,
    });
  });

  it("counts a whole generateContentRequest under the channel's model name, a thinking suffix read as for generation", async () => {
    const answer = await post("/v1beta/models/gem-pro-thinking-low:countTokens", {
      generateContentRequest: {
        model: "models/anything",
        contents,
        systemInstruction: { parts: [{ text: "Be brief." }] },
      },
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { totalTokens: number };
    expect(body.totalTokens).toBeGreaterThan(0);
    expect(upstream.requests[0]).toMatchObject({
      path: "/v1beta/models/gmx-2.5-pro:countTokens",
      body: { generateContentRequest: { model: "models/gmx-2.5-pro", contents } },
    });
  });

  it("checks the key, the model limits and the model as generation does, before any upstream call", async () => {
    const unknownKey = await post("/v1beta/models/gmx-2.5-flash:countTokens", { contents }, "sk-wrong");
    expect(unknownKey.status).toBe(401);
    const limited = await createApiKey(gateway, { remainQuota: 1000, modelLimits: ["gem-pro"] });
    const notAllowed = await post("/v1beta/models/gmx-2.5-flash:countTokens", { contents }, limited.key);
    expect(notAllowed.status).toBe(403);
    expect(await notAllowed.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
    const unknownModel = await post("/v1beta/models/gmx-typo:countTokens", { contents });
    expect(unknownModel.status).toBe(404);
    expect(await unknownModel.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    const both = await post("/v1beta/models/gmx-2.5-flash:countTokens", {
      contents,
      generateContentRequest: { contents },
    });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const neither = await post("/v1beta/models/gmx-2.5-flash:countTokens", {});
    expect(neither.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });
});
