import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeBedrockServer } from "../../mocks/upstreams/bedrock/start-fake-bedrock-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { closeChannelBreakers } from "../support/close-channel-breakers.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const accessKeyId = "ASIAFAKEACCESSKEY0001";
const secretAccessKey = "fakeSecretAccessKey0123456789abcdefghijklmn";
const sessionToken = "FwoGZXIvYXdzEFakeSessionToken0123456789abcdefghij";
const bedrockApiKey = "ABSKQmVkcm9ja0FQSUtleS1mYWtlMDEyMzQ1Njc4OQ==";
const modelId = "anthropic.claude-sonnet-4-5-v1:0";
const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe.each(testDatabases)("Bedrock channels through the official SDK on $name", ({ database }) => {
  let bedrock: FakeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bedrock-log-")), "gateway.log");
  const answers: string[] = [];

  beforeAll(async () => {
    bedrock = await startFakeBedrockServer({
      credential: { accessKeyId, secretAccessKey, sessionToken },
      apiKey: bedrockApiKey,
      region: "us-east-1",
    });
    const channel = (name: string, key: string, models: string[], mapping: Record<string, string> = {}) => ({
      name,
      type: "bedrock",
      base_url: bedrock.url,
      key,
      settings: { region: "us-east-1" },
      models,
      model_mapping: mapping,
    });
    gateway = await startTestGateway({
      database,
      logFile,
      configFile: {
        channels: [
          channel("bedrock-us", `${accessKeyId}:${secretAccessKey}:${sessionToken}`, ["claude-sonnet", modelId], {
            "claude-sonnet": modelId,
          }),
          channel("bedrock-api-key", bedrockApiKey, ["nova-pro"], { "nova-pro": "amazon.nova-pro-v1:0" }),
          channel("bedrock-wrong-secret", `${accessKeyId}:wrongSecret0000000000000000000000000000000:${sessionToken}`, [
            "wrong",
          ]),
        ],
        // 2 and 4 USD per 1M tokens (1 and 2 units per token); cached input at 0.2 USD is 0.1 unit per token, a
        // cache write at 10 USD 5 units.
        pricing: {
          "claude-sonnet": { input: 2, output: 4, cached_input: 0.2, cache_write_input: 10 },
          [modelId]: { input: 2, output: 4 },
          "nova-pro": { input: 2, output: 4 },
          wrong: { input: 2, output: 4 },
        },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = apiKey.id;
    client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await bedrock?.close();
  });
  beforeEach(() => {
    bedrock.reset();
    // A broken stream counts against its channel: the faults one test injects must not cool the next one's down.
    closeChannelBreakers(gateway);
  });

  const spent = async (action: () => Promise<void>) => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };
  const conversePath = (id: string, stream = false) =>
    `/model/${encodeURIComponent(id)}/${stream ? "converse-stream" : "converse"}`;

  it("converses through a SigV4-signed request (session token included), the model id URL-encoded, billed exactly", async () => {
    let completion: OpenAI.Chat.ChatCompletion | undefined;
    const cost = await spent(async () => {
      completion = await client.chat.completions.create({
        model: "claude-sonnet",
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: "one two three four five" },
        ],
        max_tokens: 4,
        stop: ["never"],
        temperature: 0.5,
      });
    });
    answers.push(JSON.stringify(completion));
    expect(completion!.choices[0]).toMatchObject({
      message: { role: "assistant", content: "Echo: one two three" },
      finish_reason: "length",
    });
    // 3 + 5 words + 2 system words = 10 prompt tokens; 4 completion tokens
    expect(completion!.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 });
    const sent = bedrock.requests[0]!;
    expect(sent.path).toBe("/model/anthropic.claude-sonnet-4-5-v1%3A0/converse");
    expect(sent.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=ASIAFAKEACCESSKEY0001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=/,
    );
    expect(sent.headers["x-amz-security-token"]).toBe(sessionToken);
    expect(sent.body).toEqual({
      messages: [{ role: "user", content: [{ text: "one two three four five" }] }],
      system: [{ text: "be brief" }],
      inferenceConfig: { maxTokens: 4, temperature: 0.5, stopSequences: ["never"] },
    });
    expect(cost).toBe(10 + 2 * 4);
  });

  it("streams tool calls decoded from binary event stream frames, usage from the metadata event", async () => {
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    const cost = await spent(async () => {
      const stream = await client.chat.completions.create({
        model: "claude-sonnet",
        messages: [{ role: "user", content: "weather in Paris" }],
        tools: [weatherTool],
        tool_choice: { type: "function", function: { name: "get_weather" } },
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk);
    });
    answers.push(JSON.stringify(chunks));
    expect(bedrock.requests[0]!.path).toBe(conversePath(modelId, true));
    expect((bedrock.requests[0]!.body as { toolConfig: unknown }).toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: "get_weather",
            inputSchema: {
              json: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            },
          },
        },
      ],
      toolChoice: { tool: { name: "get_weather" } },
    });
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: "tooluse_fake000001", function: { name: "get_weather" } });
    expect(calls.map((call) => call.function?.arguments ?? "").join("")).toBe('{"city":"weather in Paris"}');
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe("tool_calls");
    // 3 + 3 words = 6 prompt tokens; 5 + 3 output tokens
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 8 });
    expect(cost).toBe(6 + 2 * 8);
  });

  it("sends tool results and images as bytes, and bills cache reads at cached_input and writes at cache_write_input", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGM4UaEBAAN0AWnL+tDXAAAAAElFTkSuQmCC";
    let completion: OpenAI.Chat.ChatCompletion | undefined;
    const cost = await spent(async () => {
      completion = await client.chat.completions.create({
        model: "claude-sonnet",
        messages: [
          { role: "system", content: "[cached] rules" },
          {
            role: "user",
            content: [
              { type: "text", text: "look" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_1", type: "function", function: { name: "zoom", arguments: '{"x":1}' } }],
          },
          { role: "tool", tool_call_id: "call_1", content: "zoomed in" },
        ],
      });
    });
    expect((bedrock.requests[0]!.body as { messages: unknown }).messages).toEqual([
      { role: "user", content: [{ text: "look" }, { image: { format: "png", source: { bytes: png } } }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: "call_1", name: "zoom", input: { x: 1 } } }] },
      { role: "user", content: [{ toolResult: { toolUseId: "call_1", content: [{ text: "zoomed in" }] } }] },
    ]);
    expect(completion!.choices[0]!.message.content).toBe("Tool result: zoomed in");
    // inputTokens (3+1+10) + (3) + (3+2) + system 2 = 24, plus 4 cache reads and 2 cache writes = 30 prompt tokens
    expect(completion!.usage).toMatchObject({
      prompt_tokens: 30,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 4 },
    });
    // 24 uncached × 1 + 4 cached × 0.1 + 2 written × 5 + 4 completion × 2 = 42.4 → 42 units
    expect(cost).toBe(42);
  });

  it("sends a Bedrock API key as Bearer", async () => {
    const completion = await client.chat.completions.create({
      model: "nova-pro",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0]!.message.content).toBe("Echo: hi");
    expect(bedrock.requests[0]!.headers.authorization).toBe(`Bearer ${bedrockApiKey}`);
    expect(bedrock.requests[0]!.path).toBe(conversePath("amazon.nova-pro-v1:0"));
  });

  it("ends a stream whose frame fails its CRC with an error event, billing what was seen", async () => {
    for (const marker of ["[bad-crc]", "[broken-frame]", "[stream-exception]"]) {
      let text = "";
      const cost = await spent(async () => {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: "claude-sonnet",
            messages: [{ role: "user", content: `${marker} one two three four five` }],
            stream: true,
          }),
        });
        text = await response.text();
      });
      // No metadata event came: what was seen (the prompt and the streamed words) is billed, once.
      expect(cost).toBeGreaterThan(0);
      answers.push(text);
      const frames = text.split("\n\n").filter(Boolean);
      expect(frames.at(-1)).toBe("data: [DONE]");
      const error = JSON.parse(frames.at(-2)!.slice("data: ".length)) as { error: { message: string } };
      expect(error.error.message).toMatch(
        marker === "[stream-exception]"
          ? /^The upstream failed mid-stream \(modelStreamErrorException\): The model stream failed\.$/
          : /^The upstream sent a broken event stream frame\.$/,
      );
      // the frames before the fault reached the client: the start and two words
      expect(text).toContain('"content":"Echo:"');
    }
  });

  it("maps Bedrock errors: throttling is a retryable 429, a wrong secret 403 without echoing any credential", async () => {
    const throttled: unknown = await client.chat.completions
      .create({ model: "claude-sonnet", messages: [{ role: "user", content: "[throttle] hi" }] })
      .catch((caught: unknown) => caught);
    expect((throttled as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    const refused: unknown = await client.chat.completions
      .create({ model: "wrong", messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    answers.push(JSON.stringify(refused), (refused as Error).message);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(400);
    expect((refused as Error).message).toContain("The request signature we calculated does not match");
  });

  it("answers Responses through Converse: instructions as system, function tools, usage with cache reads", async () => {
    let response: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      response = await client.responses.create({
        model: "claude-sonnet",
        instructions: "[cached] rules",
        input: "one two three",
        max_output_tokens: 3,
      });
    });
    answers.push(JSON.stringify(response));
    expect(bedrock.requests[0]!.path).toBe(conversePath(modelId));
    expect(bedrock.requests[0]!.body).toEqual({
      system: [{ text: "[cached] rules" }],
      messages: [{ role: "user", content: [{ text: "one two three" }] }],
      inferenceConfig: { maxTokens: 3 },
    });
    // "Echo: one two three" cut at 3 words: incomplete for the output limit.
    expect(response!.output_text).toBe("Echo: one two");
    expect(response!).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    // inputTokens 3 + 3 words + 2 system words = 8, plus 4 read and 2 written = 14; 3 output tokens
    expect(response!.usage).toMatchObject({
      input_tokens: 14,
      output_tokens: 3,
      input_tokens_details: { cached_tokens: 4 },
    });
    // 8 × 1 + 4 × 0.1 + 2 × 5 + 3 × 2 = 24.4 → 24 units
    expect(cost).toBe(24);

    // The function call comes back as an item whose call_id is Bedrock's toolUseId; its output goes back as a toolResult.
    const called = await client.responses.create({
      model: "claude-sonnet",
      input: "weather in Paris",
      tools: [{ type: "function", name: "get_weather", parameters: weatherTool.function.parameters, strict: false }],
    });
    const call = called.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({
      call_id: "tooluse_fake000001",
      name: "get_weather",
      arguments: '{"city":"weather in Paris"}',
    });
    const answered = await client.responses.create({
      model: "claude-sonnet",
      input: [
        { role: "user", content: "weather in Paris" },
        { type: "function_call", call_id: call!.call_id, name: "get_weather", arguments: call!.arguments },
        { type: "function_call_output", call_id: call!.call_id, output: "sunny" },
      ],
    });
    expect((bedrock.requests[2]!.body as { messages: unknown }).messages).toEqual([
      { role: "user", content: [{ text: "weather in Paris" }] },
      {
        role: "assistant",
        content: [
          { toolUse: { toolUseId: "tooluse_fake000001", name: "get_weather", input: { city: "weather in Paris" } } },
        ],
      },
      { role: "user", content: [{ toolResult: { toolUseId: "tooluse_fake000001", content: [{ text: "sunny" }] } }] },
    ]);
    expect(answered.output_text).toBe("Tool result: sunny");
  });

  it("streams Responses events from Converse frames, response.completed carrying the metadata usage", async () => {
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    const cost = await spent(async () => {
      const stream = await client.responses.create({
        model: "claude-sonnet",
        input: "weather in Paris",
        tools: [{ type: "function", name: "get_weather", parameters: weatherTool.function.parameters, strict: false }],
        stream: true,
      });
      for await (const event of stream) events.push(event);
    });
    answers.push(JSON.stringify(events));
    expect(bedrock.requests[0]!.path).toBe(conversePath(modelId, true));
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.output[0]).toMatchObject({
      type: "function_call",
      status: "completed",
      arguments: '{"city":"weather in Paris"}',
    });
    expect(completed.response.usage).toMatchObject({ input_tokens: 6, output_tokens: 8 });
    expect(cost).toBe(6 + 2 * 8);

    // A broken frame ends the stream with an error event, the usage seen so far billed.
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet", input: "[bad-crc] one two three", stream: true }),
    });
    const text = await response.text();
    const last = text.split("\n\n").filter(Boolean).at(-1)!;
    expect(last).toMatch(/^event: error\n/);
    expect(JSON.parse(last.split("\ndata: ")[1]!)).toMatchObject({
      type: "error",
      message: "The upstream sent a broken event stream frame.",
    });
  });

  it("tests a channel with a signed one-token Converse call", async () => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { size: 50 } } });
    const id = list.data!.data.items.find((channel) => channel.name === "bedrock-us")!.id;
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id } },
      body: {},
    });
    answers.push(JSON.stringify(list.data), JSON.stringify(result.data));
    expect(result.data!.data).toMatchObject({ success: true, message: "" });
    expect(bedrock.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "ping" }] }],
      inferenceConfig: { maxTokens: 1 },
    });
  });

  it("never writes the secret, the session token or an API key into a log line or an answer", () => {
    const logText = fs.readFileSync(logFile, "utf8");
    expect(logText.length).toBeGreaterThan(0);
    for (const text of [logText, ...answers])
      for (const secret of [secretAccessKey, sessionToken, bedrockApiKey, "wrongSecret00000000"])
        expect(text).not.toContain(secret);
  });
});
