import Anthropic from "@anthropic-ai/sdk";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeVertexUpstream,
  startFakeVertexServer,
} from "../../mocks/upstreams/vertex/start-fake-vertex-server.js";
import { vertexTokens } from "../../src/providers/vertex/create-vertex-token-cache.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const clientEmail = "gateway@my-project.iam.gserviceaccount.com";

function createServiceAccount(tokenUri: string) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const json = JSON.stringify({
    type: "service_account",
    project_id: "my-project",
    private_key_id: "0123456789abcdef",
    private_key: pem,
    client_email: clientEmail,
    client_id: "100000000000000000001",
    token_uri: tokenUri,
  });
  return { publicKey, pem, json };
}

interface Usage {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
}
// 2 and 4 USD per 1M tokens: 1 and 2 units per token.
const unitsFor = (usage: Usage) =>
  usage.promptTokenCount + 2 * ((usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0));

describe.each(testDatabases)("Vertex AI channels through the official SDKs on $name", ({ database }) => {
  let vertex: FakeVertexUpstream;
  let gateway: TestGateway;
  let genai: GoogleGenAI;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let tokenId: number;
  let account: ReturnType<typeof createServiceAccount>;
  let strangerAccount: ReturnType<typeof createServiceAccount>;
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vertex-log-")), "gateway.log");
  const answers: string[] = [];

  beforeAll(async () => {
    // The fake needs the account's public key and the account its token_uri: one key pair, the URI filled in after.
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    vertex = await startFakeVertexServer({ clientEmail, publicKey, projectId: "my-project", region: "us-central1" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    account = {
      publicKey,
      pem,
      json: JSON.stringify({
        type: "service_account",
        project_id: "my-project",
        private_key_id: "0123456789abcdef",
        private_key: pem,
        client_email: clientEmail,
        token_uri: vertex.tokenUri,
      }),
    };
    // Signed by a key the fake does not know.
    strangerAccount = createServiceAccount(vertex.tokenUri);
    gateway = await startTestGateway({
      database,
      logFile,
      configFile: {
        channels: [
          {
            name: "vertex",
            type: "vertex",
            base_url: vertex.url,
            key: account.json,
            settings: { region: "us-central1" },
            models: ["gmx-2.5-flash", "gmx-renamed"],
            model_mapping: { "gmx-renamed": "gmx-2.5-flash" },
          },
          {
            name: "vertex-stranger",
            type: "vertex",
            base_url: vertex.url,
            key: strangerAccount.json,
            settings: { region: "us-central1", project_id: "my-project" },
            models: ["gmx-stranger"],
          },
        ],
        pricing: {
          "gmx-2.5-flash": { input: 2, output: 4 },
          "gmx-renamed": { input: 2, output: 4 },
          "gmx-stranger": { input: 2, output: 4 },
        },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = apiKey.id;
    genai = new GoogleGenAI({ apiKey: apiKey.key, httpOptions: { baseUrl: gateway.url } });
    openai = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: apiKey.key, baseURL: gateway.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await vertex?.close();
  });
  beforeEach(() => {
    vertex.reset();
  });

  const remainQuota = async () => (await readToken(gateway, tokenId)).remain_quota;
  const generatePath = (method: string) =>
    `/v1/projects/my-project/locations/us-central1/publishers/google/models/gmx-2.5-flash:${method}`;
  const apiCalls = () => vertex.requests.filter((request) => request.path !== "/token");

  it("generates through @google/genai on Vertex's path with an access token the service account's JWT bought", async () => {
    vertexTokens.clear();
    const issuedBefore = vertex.tokensIssued();
    const before = await remainQuota();
    const reply = await genai.models.generateContent({ model: "gmx-2.5-flash", contents: "hello vertex" });
    answers.push(JSON.stringify(reply));
    expect(reply.text).toBe("Echo: hello vertex");
    expect(vertex.tokensIssued() - issuedBefore).toBe(1);
    const token = vertex.requests.find((request) => request.path === "/token")!;
    expect(String(token.headers["content-type"])).toBe("application/x-www-form-urlencoded");
    const [call] = apiCalls();
    expect(call!.path).toBe(generatePath("generateContent"));
    expect(call!.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(call!.headers["x-goog-api-key"]).toBeUndefined();
    expect(call!.body).toMatchObject({ contents: [{ role: "user", parts: [{ text: "hello vertex" }] }] });
    expect(before - (await remainQuota())).toBe(unitsFor(reply.usageMetadata as Usage));
  });

  it("streams through @google/genai (alt=sse) reusing the cached token, billed by the last fragment's usage", async () => {
    const issuedBefore = vertex.tokensIssued();
    const before = await remainQuota();
    const stream = await genai.models.generateContentStream({ model: "gmx-renamed", contents: "stream me please" });
    let text = "";
    let usage: Usage | undefined;
    for await (const chunk of stream) {
      text += chunk.text ?? "";
      if (chunk.usageMetadata) usage = chunk.usageMetadata as Usage;
    }
    expect(text).toBe("Echo: stream me please");
    expect(apiCalls()[0]!.path).toBe(`${generatePath("streamGenerateContent")}?alt=sse`);
    expect(vertex.tokensIssued()).toBe(issuedBefore);
    expect(before - (await remainQuota())).toBe(unitsFor(usage!));
  });

  it("serves OpenAI chat (JSON and stream, with tools) and Responses through the native translation", async () => {
    const before = await remainQuota();
    const completion = await openai.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "hello chat" }],
    });
    answers.push(JSON.stringify(completion));
    expect(completion.choices[0]!.message.content).toBe("Echo: hello chat");
    expect(apiCalls()[0]!.path).toBe(generatePath("generateContent"));
    const afterJson = await remainQuota();
    expect(before - afterJson).toBe(completion.usage!.prompt_tokens + 2 * completion.usage!.completion_tokens);

    const stream = await openai.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "weather in Paris" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    answers.push(JSON.stringify(chunks));
    expect(apiCalls()[1]!.path).toBe(`${generatePath("streamGenerateContent")}?alt=sse`);
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function?.name === "get_weather")).toBe(
      true,
    );
    const usage = chunks.at(-1)!.usage!;
    const afterStream = await remainQuota();
    expect(afterJson - afterStream).toBe(usage.prompt_tokens + 2 * usage.completion_tokens);

    const response = await openai.responses.create({ model: "gmx-2.5-flash", input: "hello responses" });
    answers.push(JSON.stringify(response));
    expect(response.output_text).toBe("Echo: hello responses");
    expect(apiCalls()[2]!.path).toBe(generatePath("generateContent"));
    expect(afterStream - (await remainQuota())).toBe(response.usage!.input_tokens + 2 * response.usage!.output_tokens);
  });

  it("serves Anthropic's Messages door (JSON and stream) through the native translation", async () => {
    const before = await remainQuota();
    const message = await anthropic.messages.create({
      model: "gmx-2.5-flash",
      max_tokens: 50,
      messages: [{ role: "user", content: "hello messages" }],
    });
    answers.push(JSON.stringify(message));
    expect(message.content).toEqual([{ type: "text", text: "Echo: hello messages" }]);
    expect(apiCalls()[0]!.path).toBe(generatePath("generateContent"));
    const afterJson = await remainQuota();
    expect(before - afterJson).toBe(message.usage.input_tokens + 2 * message.usage.output_tokens);

    const streamed = await anthropic.messages
      .stream({ model: "gmx-2.5-flash", max_tokens: 50, messages: [{ role: "user", content: "hello stream" }] })
      .finalMessage();
    answers.push(JSON.stringify(streamed));
    expect(streamed.content).toEqual([{ type: "text", text: "Echo: hello stream" }]);
    expect(apiCalls()[1]!.path).toBe(`${generatePath("streamGenerateContent")}?alt=sse`);
    expect(afterJson - (await remainQuota())).toBe(streamed.usage.input_tokens + 2 * streamed.usage.output_tokens);
  });

  it("gets a fresh token once when Vertex answers 401 to an expired one", async () => {
    const issuedBefore = vertex.tokensIssued();
    vertex.expireTokens();
    const reply = await genai.models.generateContent({ model: "gmx-2.5-flash", contents: "after expiry" });
    expect(reply.text).toBe("Echo: after expiry");
    expect(vertex.tokensIssued() - issuedBefore).toBe(1);
    expect(apiCalls().map((request) => request.path)).toEqual([
      generatePath("generateContent"),
      generatePath("generateContent"),
    ]);
  });

  it("refuses a service account whose JWT the token endpoint cannot verify, refunding and echoing nothing secret", async () => {
    const before = await remainQuota();
    const error: unknown = await openai.chat.completions
      .create({ model: "gmx-stranger", messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as Error).message).toContain(
      "The vertex channel could not get an access token: the token endpoint answered 400: invalid_grant.",
    );
    answers.push(JSON.stringify(error), (error as Error).message);
    expect(apiCalls()).toHaveLength(0);
    expect(await remainQuota()).toBe(before);
  });

  it("tests a channel with a fresh token", async () => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { size: 50 } } });
    const id = list.data!.data.items.find((channel) => channel.name === "vertex")!.id;
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id } },
      body: {},
    });
    answers.push(JSON.stringify(list.data), JSON.stringify(result.data));
    expect(result.data!.data).toMatchObject({ success: true, model: "gmx-2.5-flash", message: "" });
    expect(apiCalls()[0]!.path).toBe(generatePath("generateContent"));
  });

  it("never writes the private key, the signed assertion or an access token into a log line or an answer", async () => {
    const logText = fs.readFileSync(logFile, "utf8");
    expect(logText.length).toBeGreaterThan(0);
    const privateKeyBody = account.pem.split("\n")[1]!;
    const strangerKeyBody = strangerAccount.pem.split("\n")[1]!;
    for (const text of [logText, ...answers]) {
      expect(text).not.toContain(privateKeyBody);
      expect(text).not.toContain(strangerKeyBody);
      expect(text).not.toContain("ya29.");
      expect(text).not.toContain("eyJhbGciOiJSUzI1NiIs");
      expect(text).not.toContain("PRIVATE KEY");
    }
  });
});
