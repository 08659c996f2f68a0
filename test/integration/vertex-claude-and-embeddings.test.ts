import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddingVector } from "../../mocks/upstreams/openai/create-embedding-vector.js";
import {
  type FakeVertexUpstream,
  startFakeVertexServer,
} from "../../mocks/upstreams/vertex/start-fake-vertex-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const clientEmail = "claude-gateway@my-project.iam.gserviceaccount.com";
const claudeModel = "claude-sonnet-4-5@20250929";
const rawPredictPath = (method: string) =>
  `/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/${encodeURIComponent(claudeModel)}:${method}`;
// Eight words, marked for the prompt cache.
const cachedSystem = [
  {
    type: "text" as const,
    text: "You are a careful assistant with strict rules",
    cache_control: { type: "ephemeral" as const },
  },
];

describe.each(testDatabases)("Claude (rawPredict) and embeddings (predict) on Vertex AI on $name", ({ database }) => {
  let vertex: FakeVertexUpstream;
  let gateway: TestGateway;
  let anthropic: Anthropic;
  let openai: OpenAI;
  let genai: GoogleGenAI;
  let tokenId: number;
  let privateKeyPem = "";
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vertex-claude-log-")), "gateway.log");
  const answers: string[] = [];

  beforeAll(async () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    vertex = await startFakeVertexServer({ clientEmail, publicKey, projectId: "my-project", region: "us-east5" });
    privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const account = JSON.stringify({
      type: "service_account",
      project_id: "my-project",
      private_key_id: "fedcba9876543210",
      private_key: privateKeyPem,
      client_email: clientEmail,
      token_uri: vertex.tokenUri,
    });
    gateway = await startTestGateway({
      database,
      logFile,
      configFile: {
        channels: [
          {
            name: "vertex-claude",
            type: "vertex",
            base_url: vertex.url,
            key: account,
            settings: { region: "us-east5" },
            models: ["claude-sonnet", "gmx-2.5-flash", "text-embedding-005"],
            model_mapping: { "claude-sonnet": claudeModel },
          },
        ],
        // Per token: input 1 unit, output 2, a cache read 0.5, a cache write 2.
        pricing: {
          "claude-sonnet": { input: 2, output: 4, cached_input: 1, cache_write_input: 4 },
          "gmx-2.5-flash": { input: 2, output: 4 },
          "text-embedding-005": { input: 2, output: 2 },
        },
      },
    });
    const created = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = created.id;
    anthropic = new Anthropic({ apiKey: created.key, baseURL: gateway.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: created.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: created.key, httpOptions: { baseUrl: gateway.url } });
  });
  afterAll(async () => {
    await gateway?.close();
    await vertex?.close();
  });
  beforeEach(() => vertex.reset());

  const apiCalls = () => vertex.requests.filter((request) => request.path !== "/token");
  const spent = async (action: () => Promise<unknown>) => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };

  it("sends a Messages request to rawPredict with vertex-2023-10-16 and no model; cache writes and reads priced apart", async () => {
    let message: Anthropic.Message | undefined;
    const first = await spent(async () => {
      message = await anthropic.messages.create({
        model: "claude-sonnet",
        max_tokens: 50,
        system: cachedSystem,
        messages: [{ role: "user", content: "one two three" }],
      });
    });
    answers.push(JSON.stringify(message));
    const [call] = apiCalls();
    expect(call!.path).toBe(rawPredictPath("rawPredict"));
    expect(call!.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(call!.headers["anthropic-version"]).toBeUndefined();
    expect(call!.body).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 50,
      system: cachedSystem,
      messages: [{ role: "user", content: "one two three" }],
    });
    expect(message!.model).toBe("claude-sonnet");
    expect(message!.content).toEqual([{ type: "text", text: "Echo: one two three" }]);
    expect(message!.usage).toMatchObject({ input_tokens: 6, cache_creation_input_tokens: 8, output_tokens: 4 });
    expect(first).toBe(6 * 1 + 8 * 2 + 4 * 2);

    // Streamed, the same prefix is read from the cache.
    const events: Anthropic.MessageStreamEvent[] = [];
    const second = await spent(async () => {
      const stream = await anthropic.messages.create({
        model: "claude-sonnet",
        max_tokens: 50,
        system: cachedSystem,
        messages: [{ role: "user", content: "one two three" }],
        stream: true,
      });
      for await (const event of stream) events.push(event);
    });
    answers.push(JSON.stringify(events));
    expect(apiCalls().at(-1)!.path).toBe(rawPredictPath("streamRawPredict"));
    expect(apiCalls().at(-1)!.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", stream: true });
    expect((events[0] as Anthropic.RawMessageStartEvent).message.model).toBe("claude-sonnet");
    expect(events.at(-1)!.type).toBe("message_stop");
    expect(second).toBe(6 * 1 + 8 * 0.5 + 4 * 2);
  });

  it("serves chat completions on Claude through Claude's translation, max_tokens defaulted, JSON and stream", async () => {
    let completion: OpenAI.Chat.ChatCompletion | undefined;
    const cost = await spent(async () => {
      completion = await openai.chat.completions.create({
        model: "claude-sonnet",
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: "one two three" },
        ],
      });
    });
    answers.push(JSON.stringify(completion));
    const [call] = apiCalls();
    expect(call!.path).toBe(rawPredictPath("rawPredict"));
    expect(call!.body).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 4096,
      system: "be brief",
      messages: [{ role: "user", content: [{ type: "text", text: "one two three" }] }],
    });
    expect(completion!.choices[0]!.message.content).toBe("Echo: one two three");
    // 2 system words + 3 + 3 = 8 prompt tokens, 4 output tokens
    expect(completion!.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 4 });
    expect(cost).toBe(8 + 2 * 4);

    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    const streamed = await spent(async () => {
      const stream = await openai.chat.completions.create({
        model: "claude-sonnet",
        messages: [{ role: "user", content: "four five" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk);
    });
    expect(apiCalls().at(-1)!.path).toBe(rawPredictPath("streamRawPredict"));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("Echo: four five");
    // 3 + 2 = 5 prompt tokens, 3 output tokens
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 3 });
    expect(streamed).toBe(5 + 2 * 3);
  });

  it("refreshes an expired access token once and goes on", async () => {
    vertex.expireTokens();
    const issued = vertex.tokensIssued();
    const message = await anthropic.messages.create({
      model: "claude-sonnet",
      max_tokens: 10,
      messages: [{ role: "user", content: "again" }],
    });
    expect(message.content).toEqual([{ type: "text", text: "Echo: again" }]);
    expect(vertex.tokensIssued() - issued).toBe(1);
    expect(apiCalls().map((call) => call.path)).toEqual([rawPredictPath("rawPredict"), rawPredictPath("rawPredict")]);
  });

  it("serves Responses on Claude through Claude's Responses translation on rawPredict, JSON and stream", async () => {
    let response: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      response = await openai.responses.create({
        model: "claude-sonnet",
        instructions: "be brief",
        input: "one two three",
        max_output_tokens: 64,
      });
    });
    answers.push(JSON.stringify(response));
    const [call] = apiCalls();
    expect(call!.path).toBe(rawPredictPath("rawPredict"));
    expect(call!.body).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 64,
      system: "be brief",
      messages: [{ role: "user", content: [{ type: "text", text: "one two three" }] }],
    });
    expect(response!.status).toBe("completed");
    expect(response!.output_text).toBe("Echo: one two three");
    // 2 system words + 3 + 3 = 8 prompt tokens, 4 output tokens
    expect(response!.usage).toMatchObject({ input_tokens: 8, output_tokens: 4 });
    expect(cost).toBe(8 + 2 * 4);

    let completed: OpenAI.Responses.Response | undefined;
    let text = "";
    const streamed = await spent(async () => {
      const stream = await openai.responses.create({ model: "claude-sonnet", input: "four five", stream: true });
      for await (const event of stream) {
        if (event.type === "response.output_text.delta") text += event.delta;
        if (event.type === "response.completed") completed = event.response;
      }
    });
    expect(apiCalls().at(-1)!.path).toBe(rawPredictPath("streamRawPredict"));
    expect(apiCalls().at(-1)!.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", stream: true });
    expect(apiCalls().at(-1)!.body).not.toHaveProperty("model");
    expect(text).toBe("Echo: four five");
    // 3 + 2 = 5 prompt tokens, 3 output tokens
    expect(completed!.usage).toMatchObject({ input_tokens: 5, output_tokens: 3 });
    expect(streamed).toBe(5 + 2 * 3);
  });

  it("refuses on Claude what Claude's Responses translation refuses, before any upstream call", async () => {
    const cost = await spent(async () => {
      const refused: unknown = await openai.responses
        .create({ model: "claude-sonnet", input: "hi", previous_response_id: "resp_abc" })
        .catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("previous_response_id");
    });
    expect(cost).toBe(0);
    expect(apiCalls()).toHaveLength(0);
  });

  it("tests a Claude channel model with a one-token rawPredict call", async () => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { size: 50 } } });
    const id = list.data!.data.items.find((channel) => channel.name === "vertex-claude")!.id;
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id } },
      body: { model: "claude-sonnet" },
    });
    expect(result.data!.data).toMatchObject({ success: true });
    expect(apiCalls()[0]!.path).toBe(rawPredictPath("rawPredict"));
    expect(apiCalls()[0]!.body).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 1,
      messages: [{ role: "user", content: "ping" }],
    });
  });

  const predictPath = "/v1/projects/my-project/locations/us-east5/publishers/google/models/text-embedding-005:predict";

  it("embeds through :predict on the OpenAI door, billing Vertex's token_count", async () => {
    let answer: OpenAI.CreateEmbeddingResponse | undefined;
    const cost = await spent(async () => {
      answer = await openai.embeddings.create({
        model: "text-embedding-005",
        input: ["one two three", "four"],
        dimensions: 256,
      });
    });
    const [call] = apiCalls();
    expect(call!.path).toBe(predictPath);
    expect(call!.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(call!.body).toEqual({
      instances: [{ content: "one two three" }, { content: "four" }],
      parameters: { outputDimensionality: 256 },
    });
    expect(answer!.data.map((item) => item.embedding)).toEqual([
      createEmbeddingVector("one two three", 256),
      createEmbeddingVector("four", 256),
    ]);
    expect(answer!.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    expect(cost).toBe(4);
  });

  it("embeds through :predict on the native doors (@google/genai batchEmbedContents), answered in the native shape", async () => {
    let embedded: Awaited<ReturnType<typeof genai.models.embedContent>> | undefined;
    const cost = await spent(async () => {
      embedded = await genai.models.embedContent({
        model: "text-embedding-005",
        contents: ["alpha beta", "gamma"],
        config: { taskType: "RETRIEVAL_DOCUMENT" },
      });
    });
    expect(apiCalls()[0]!.body).toEqual({
      instances: [
        { content: "alpha beta", task_type: "RETRIEVAL_DOCUMENT" },
        { content: "gamma", task_type: "RETRIEVAL_DOCUMENT" },
      ],
    });
    expect(embedded!.embeddings?.map((embedding) => embedding.values)).toEqual([
      createEmbeddingVector("alpha beta", 768),
      createEmbeddingVector("gamma", 768),
    ]);
    expect(cost).toBe(3);
  });

  it("never writes the private key or an access token into a log line or an answer", () => {
    const logText = fs.readFileSync(logFile, "utf8");
    expect(logText.length).toBeGreaterThan(0);
    const keyBody = privateKeyPem.split("\n")[1]!;
    for (const text of [logText, ...answers]) {
      expect(text).not.toContain(keyBody);
      expect(text).not.toMatch(/ya29\.fake-/);
    }
  });
});
