import http from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const safetySettings = [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }];
type ChatDelta = { content?: string | null; reasoning_content?: string };

/**
 * OpenAI chat and embeddings for the native (gmx-) family, end to end: the official SDK → gateway → fake native
 * upstream. The fake counts one token per word and 2 per content (system instruction included), so every
 * usage and price below can be worked out by hand; the outgoing native request bodies are asserted exactly.
 */
describe.each(testDatabases)("OpenAI chat and embeddings on a native channel on $name", ({ database }) => {
  let upstream: FakeNativeUpstream;
  let mediaServer: http.Server;
  let mediaUrl: string;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;
  let responseCounter = 0;

  beforeAll(async () => {
    upstream = await startFakeNativeServer({
      apiKey: "native-secret",
      createResponseId: () => `resp-${++responseCounter}`,
    });
    // A real image on loopback: the only reason the gateway may refuse it is the SSRF guard.
    mediaServer = http.createServer((_request, response) =>
      response.writeHead(200, { "content-type": "image/png" }).end(createTinyPng(1, 1, [0, 0, 0])),
    );
    await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
    mediaUrl = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}/cat.png`;
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native-main",
            type: "native",
            base_url: upstream.url,
            key: "native-secret",
            models: ["gmx-2.5-flash", "gmx-fast", "gmx-embed"],
            model_mapping: { "gmx-fast": "gmx-2.5-flash", "gmx-embed": "gmx-embedding-001" },
          },
        ],
        pricing: {
          "gmx-2.5-flash": { input: 2, output: 4 },
          // Priced by the name the client sent, suffix included.
          "gmx-2.5-flash-thinking": { input: 2, output: 10 },
          "gmx-fast-thinking": { input: 2, output: 10 },
          "gmx-embed": { input: 2, output: 0 },
        },
        native: { safety_settings: safetySettings },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = apiKey.id;
    client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await new Promise<void>((resolve) => mediaServer.close(() => resolve()));
  });
  beforeEach(() => upstream.reset());

  it("answers a chat completion from generateContent, with the upstream responseId as id, and bills the usageMetadata exactly", async () => {
    const before = await readToken(gateway, tokenId);
    const completion = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "hello world" }],
    });

    expect(completion.id).toBe(`resp-${responseCounter}`);
    expect(completion.model).toBe("gmx-2.5-flash");
    expect(completion.choices).toEqual([
      { index: 0, message: { role: "assistant", content: "Echo: hello world" }, finish_reason: "stop" },
    ]);
    // prompt: 2 per content + 2 words = 4; answer: "Echo: hello world" = 3 words.
    expect(completion.usage).toMatchObject({
      prompt_tokens: 4,
      completion_tokens: 3,
      total_tokens: 7,
      completion_tokens_details: { reasoning_tokens: 0 },
    });

    const sent = upstream.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe("native-secret");
    expect(sent.headers.authorization).toBeUndefined();
    // temperature 0.7 is the seed's default for chat, filled in by the request validator.
    expect(sent.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "hello world" }] }],
      generationConfig: { temperature: 0.7 },
      safetySettings,
    });

    // 4 × $2 + 3 × $4 per 1M = 20 µUSD = 10 units.
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBe(10);
    expect(after.used_quota - before.used_quota).toBe(10);
  });

  it("streams a -thinking model: reasoning_content deltas, then content, then usage; thoughts billed as output", async () => {
    const before = await readToken(gateway, tokenId);
    const stream = await client.chat.completions.create({
      model: "gmx-2.5-flash-thinking",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "hello world" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta as ChatDelta));
    const reasoning = deltas.map((delta) => delta.reasoning_content ?? "").join("");
    const content = deltas.map((delta) => delta.content ?? "").join("");
    expect(reasoning).toBe("Thinking about hello world");
    expect(content).toBe("Echo: hello world");
    const lastReasoning = deltas.findLastIndex((delta) => delta.reasoning_content);
    const firstContent = deltas.findIndex((delta) => delta.content);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set([`resp-${responseCounter}`]));
    expect(chunks.every((chunk) => chunk.model === "gmx-2.5-flash-thinking")).toBe(true);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    // prompt: (2 + 2 system) + (2 + 2 user) = 8; output: 4 thought words + 3 answer words = 7.
    expect(usageChunk.usage).toMatchObject({
      prompt_tokens: 8,
      completion_tokens: 7,
      total_tokens: 15,
      completion_tokens_details: { reasoning_tokens: 4 },
    });

    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse");
    expect(sent.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "hello world" }] }],
      systemInstruction: { parts: [{ text: "Be brief" }] },
      generationConfig: { temperature: 0.7, thinkingConfig: { thinkingBudget: -1, includeThoughts: true } },
      safetySettings,
    });

    // 8 × $2 + 7 × $10 per 1M = 86 µUSD = 43 units (thinking at the output price).
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBe(43);
  });

  it("maps the base model through model_mapping and keeps the thinking suffix", async () => {
    const completion = await client.chat.completions.create({
      model: "gmx-fast-thinking",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.model).toBe("gmx-fast-thinking");
    expect(completion.choices[0]!.message.content).toBe("Echo: hi");
    expect((completion.choices[0]!.message as ChatDelta).reasoning_content).toBe("Thinking about hi");
    expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
    expect((upstream.requests[0]!.body as { generationConfig: unknown }).generationConfig).toEqual({
      temperature: 0.7,
      thinkingConfig: { thinkingBudget: -1, includeThoughts: true },
    });
  });

  it("round-trips a tool call: tool_calls with an id, then the tool message as functionResponse, streamed answer", async () => {
    const tools = [
      {
        type: "function" as const,
        function: {
          name: "get_weather",
          description: "Weather for a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ];
    const first = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "Paris" }],
      tools,
    });
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(first.choices[0]!.message.content).toBeNull();
    const toolCall = first.choices[0]!.message.tool_calls![0]! as {
      id: string;
      type: "function";
      function: { name: string; arguments: string };
    };
    expect(toolCall.id).toEqual(expect.any(String));
    expect(toolCall.id.length).toBeGreaterThan(0);
    expect(toolCall.type).toBe("function");
    expect(toolCall.function.name).toBe("get_weather");
    const callArguments = JSON.parse(toolCall.function.arguments) as Record<string, unknown>;
    expect(upstream.requests[0]!.body).toMatchObject({
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", description: "Weather for a city", parameters: tools[0]!.function.parameters },
          ],
        },
      ],
    });

    upstream.reset();
    const second = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      stream: true,
      tools,
      messages: [
        { role: "user", content: "Paris" },
        { role: "assistant", content: null, tool_calls: [toolCall] },
        { role: "tool", tool_call_id: toolCall.id, content: '{"forecast":"sunny 21C"}' },
      ],
    });
    let text = "";
    for await (const chunk of second) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe('Function get_weather returned {"forecast":"sunny 21C"}');

    const contents = (
      upstream.requests[0]!.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }
    ).contents;
    expect(callArguments).toEqual({ city: "Paris" });
    expect(contents).toEqual([
      { role: "user", parts: [{ text: "Paris" }] },
      { role: "model", parts: [{ functionCall: { id: toolCall.id, name: "get_weather", args: { city: "Paris" } } }] },
      {
        role: "user",
        parts: [{ functionResponse: { id: toolCall.id, name: "get_weather", response: { forecast: "sunny 21C" } } }],
      },
    ]);
  });

  it("turns response_format json_schema into responseMimeType and a responseSchema without additionalProperties", async () => {
    const completion = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "Where?" }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "place",
          strict: true,
          schema: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          },
        },
      },
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: expect.any(String) });
    expect((upstream.requests[0]!.body as { generationConfig: unknown }).generationConfig).toEqual({
      temperature: 0.7,
      responseMimeType: "application/json",
      responseSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
  });

  it("sends a data URI image as inlineData", async () => {
    const png = createTinyPng(2, 2, [255, 0, 0]).toString("base64");
    const completion = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "describe" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe("Echo: describe");
    // The image costs the fake 258 prompt tokens, counted under IMAGE.
    expect(completion.usage).toMatchObject({
      prompt_tokens: 2 + 1 + 258,
      prompt_tokens_details: { image_tokens: 258, text_tokens: 3 },
    });
    expect((upstream.requests[0]!.body as { contents: unknown }).contents).toEqual([
      { role: "user", parts: [{ text: "describe" }, { inlineData: { mimeType: "image/png", data: png } }] },
    ]);
  });

  it("refuses an image URL on a loopback address with 400 (SSRF guard) and never calls the upstream", async () => {
    const before = await readToken(gateway, tokenId);
    const error = await client.chat.completions
      .create({
        model: "gmx-2.5-flash",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: mediaUrl } }] }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    const host = new URL(mediaUrl).host;
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: "invalid_media_url",
      message: expect.stringMatching(
        new RegExp(
          `^Media URL on host ${host.replaceAll(".", "\\.")} is refused: 127\\.0\\.0\\.1 .*not a public address\\.$`,
        ),
      ),
    });
    expect(upstream.requests).toHaveLength(0);
    const after = await readToken(gateway, tokenId);
    expect(after.remain_quota).toBe(before.remain_quota);
  });

  it("answers a blocked prompt with content_filter, non-streaming and streaming", async () => {
    const completion = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "[block] please" }],
    });
    expect(completion.choices[0]!.finish_reason).toBe("content_filter");
    expect(completion.choices[0]!.message.content).toMatch(/SAFETY/);

    const stream = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "[block] please" }],
      stream: true,
    });
    const finishReasons = [];
    for await (const chunk of stream)
      finishReasons.push(...chunk.choices.map((choice) => choice.finish_reason).filter(Boolean));
    expect(finishReasons).toEqual(["content_filter"]);
  });

  it("maps a SAFETY finish to content_filter", async () => {
    const completion = await client.chat.completions.create({
      model: "gmx-2.5-flash",
      messages: [{ role: "user", content: "[safety] now" }],
    });
    expect(completion.choices[0]!.finish_reason).toBe("content_filter");
  });

  it("returns embeddings through batchEmbedContents: base64 by default (SDK-decoded) equal to float, with the counted usage billed", async () => {
    const before = await readToken(gateway, tokenId);
    const viaSdk = await client.embeddings.create({ model: "gmx-embed", input: ["vector me", "and me too"] });
    const asFloat = await client.embeddings.create({
      model: "gmx-embed",
      input: ["vector me", "and me too"],
      encoding_format: "float",
    });

    expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-embedding-001:batchEmbedContents");
    expect(upstream.requests[0]!.headers["x-goog-api-key"]).toBe("native-secret");
    expect(upstream.requests[0]!.body).toEqual({
      requests: [
        { model: "models/gmx-embedding-001", content: { parts: [{ text: "vector me" }] } },
        { model: "models/gmx-embedding-001", content: { parts: [{ text: "and me too" }] } },
      ],
    });
    expect(viaSdk.model).toBe("gmx-embed");
    expect(viaSdk.data.map((item) => item.index)).toEqual([0, 1]);
    expect(viaSdk.data[0]!.embedding).toHaveLength(8);
    // base64 carries float32: equal to the float answer rounded to float32.
    expect(viaSdk.data.map((item) => item.embedding)).toEqual(
      asFloat.data.map((item) => item.embedding.map((value) => Math.fround(value))),
    );
    expect(asFloat.data[0]!.embedding).not.toEqual(asFloat.data[1]!.embedding);
    // ceil(9 / 4) + ceil(10 / 4) = 3 + 3 = 6 tokens; 6 × $2 per 1M = 12 µUSD = 6 units, twice.
    expect(viaSdk.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBe(12);
  });

  it("passes dimensions as outputDimensionality", async () => {
    const result = await client.embeddings.create({
      model: "gmx-embed",
      input: "short",
      dimensions: 3,
      encoding_format: "float",
    });
    expect(result.data[0]!.embedding).toHaveLength(3);
    expect(
      (upstream.requests[0]!.body as { requests: Array<{ outputDimensionality?: number }> }).requests[0]!
        .outputDimensionality,
    ).toBe(3);
  });

  it("answers an unknown gmx model with 404 model_not_found", async () => {
    const error = await client.chat.completions
      .create({ model: "gmx-9-unknown", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      message: "no available channel for model gmx-9-unknown",
      code: "model_not_found",
    });
    expect(upstream.requests).toHaveLength(0);
  });
});
