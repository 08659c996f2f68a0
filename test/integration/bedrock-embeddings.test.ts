import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeBedrockServer } from "../../mocks/upstreams/bedrock/start-fake-bedrock-server.js";
import { createEmbeddingVector } from "../../mocks/upstreams/openai/create-embedding-vector.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { estimateEmbeddingTokens } from "../../src/providers/shared-translations/estimate-embedding-tokens.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const accessKeyId = "AKIAFAKEACCESSKEY0004";
const secretAccessKey = "fakeEmbeddingsSecret0123456789abcdefghijk";
const titan = "amazon.titan-embed-text-v2:0";
const cohere = "cohere.embed-multilingual-v3";

describe.each(testDatabases)("Bedrock embeddings through InvokeModel and the official SDK on $name", ({ database }) => {
  let bedrock: FakeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;

  beforeAll(async () => {
    bedrock = await startFakeBedrockServer({ credential: { accessKeyId, secretAccessKey }, region: "eu-central-1" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "bedrock-embeddings",
            type: "bedrock",
            base_url: bedrock.url,
            key: `${accessKeyId}:${secretAccessKey}`,
            settings: { region: "eu-central-1" },
            models: ["titan-embed", "cohere-embed", "nova-pro"],
            model_mapping: { "titan-embed": titan, "cohere-embed": cohere, "nova-pro": "amazon.nova-pro-v1:0" },
          },
        ],
        // 2 USD per 1M tokens: 1 unit per token.
        pricing: {
          "titan-embed": { input: 2, output: 2 },
          "cohere-embed": { input: 2, output: 2 },
          "nova-pro": { input: 2, output: 2 },
        },
      },
    });
    const created = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = created.id;
    client = new OpenAI({ apiKey: created.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await bedrock?.close();
  });
  beforeEach(() => bedrock.reset());

  const spent = async (action: () => Promise<void>) => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };

  it("embeds with Titan one text per signed call, billing Titan's own inputTextTokenCount", async () => {
    let answer: OpenAI.CreateEmbeddingResponse | undefined;
    const cost = await spent(async () => {
      // The SDK asks for base64 and decodes it: the vectors must survive the round trip exactly.
      answer = await client.embeddings.create({
        model: "titan-embed",
        input: ["one two three", "four five"],
        dimensions: 256,
      });
    });
    expect(bedrock.requests.map((request) => [request.path, request.body])).toEqual([
      [`/model/${encodeURIComponent(titan)}/invoke`, { inputText: "one two three", dimensions: 256, normalize: true }],
      [`/model/${encodeURIComponent(titan)}/invoke`, { inputText: "four five", dimensions: 256, normalize: true }],
    ]);
    expect(bedrock.requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEACCESSKEY0004\//);
    expect(answer!.data.map((item) => item.embedding)).toEqual([
      createEmbeddingVector("one two three", 256),
      createEmbeddingVector("four five", 256),
    ]);
    // The fake counts words: 3 + 2.
    expect(answer!.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    expect(cost).toBe(5);
  });

  it("embeds with Cohere in one call of texts, billing the gateway's estimate since Cohere reports no count", async () => {
    const input = ["the quick brown fox", "jumps over the lazy dog", "日本語"];
    let answer: OpenAI.CreateEmbeddingResponse | undefined;
    const cost = await spent(async () => {
      answer = await client.embeddings.create({ model: "cohere-embed", input, encoding_format: "float" });
    });
    expect(bedrock.requests).toHaveLength(1);
    expect(bedrock.requests[0]!.body).toEqual({ texts: input, input_type: "search_document" });
    expect(answer!.data.map((item) => item.embedding)).toEqual(input.map((text) => createEmbeddingVector(text, 1024)));
    const estimate = estimateEmbeddingTokens(input);
    expect(answer!.usage.prompt_tokens).toBe(estimate);
    expect(cost).toBe(estimate);
  });

  it("refuses what the family cannot do before any upstream call: bad dimensions, a non-embedding model", async () => {
    for (const [model, dimensions] of [
      ["titan-embed", 300],
      ["cohere-embed", 256],
      ["nova-pro", undefined],
    ] as const) {
      const cost = await spent(async () => {
        const refused: unknown = await client.embeddings
          .create({ model, input: "hello", ...(dimensions ? { dimensions } : {}) })
          .catch((caught: unknown) => caught);
        expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
      });
      expect(cost).toBe(0);
    }
    expect(bedrock.requests).toHaveLength(0);
  });
});
