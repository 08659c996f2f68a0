import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeAzureServer } from "../../mocks/upstreams/azure/start-fake-azure-server.js";
import { FAKE_IMAGE_B64 } from "../../mocks/upstreams/openai/handle-images.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { azurePromptFilteredText } from "../../src/providers/azure/relay-azure-chat.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const azureKey = "0123456789abcdefAzureResourceKey0abcdef";
const deployments = {
  "my-gpt4o": "gpt-4o",
  "my-embed": "text-embedding-3-small",
  "my-image": "gpt-image-1",
  "my-tts": "tts-1",
  "my-whisper": "whisper-1",
};
const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe.each(testDatabases)("Azure OpenAI channels through the official SDK on $name", ({ database }) => {
  let azure: FakeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;

  beforeAll(async () => {
    azure = await startFakeAzureServer({ apiKey: azureKey, deployments });
    const channel = (name: string, apiVersion: string, mapping: Record<string, string>) => ({
      name,
      type: "azure",
      base_url: azure.url,
      key: azureKey,
      settings: { api_version: apiVersion },
      models: Object.keys(mapping),
      model_mapping: mapping,
    });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          channel("azure-dated", "2024-10-21", {
            "gpt-4o": "my-gpt4o",
            "text-embedding-3-small": "my-embed",
            "img-c-2": "my-image",
            "speech-1": "my-tts",
            "transcribe-1": "my-whisper",
          }),
          channel("azure-v1", "v1", { "gpt-4o-v1": "my-gpt4o" }),
          channel("azure-preview", "2025-04-01-preview", { "gpt-4o-preview": "my-gpt4o" }),
        ],
        // 2 and 4 USD per 1M tokens: 1 and 2 units per token.
        pricing: {
          "gpt-4o": { input: 2, output: 4 },
          "gpt-4o-v1": { input: 2, output: 4 },
          "gpt-4o-preview": { input: 2, output: 4 },
          "text-embedding-3-small": { input: 2 },
          "img-c-2": { per_image: 0.02, input: 2, output: 4 },
          "speech-1": { input: 2 },
          "transcribe-1": { per_second: 0.0001 },
        },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = apiKey.id;
    client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await azure?.close();
  });
  beforeEach(() => azure.reset());

  const spent = async (action: () => Promise<void>) => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };
  const sent = (index = 0) => {
    const request = azure.requests[index]!;
    return { path: request.path, apiKey: request.headers["api-key"], authorization: request.headers.authorization };
  };
  const deploymentPath = (deployment: string, operation: string) =>
    `/openai/deployments/${deployment}/${operation}?api-version=2024-10-21`;
  const expectNoAzureFields = (value: unknown) => {
    const text = JSON.stringify(value);
    expect(text).not.toContain("content_filter_results");
    expect(text).not.toContain("prompt_filter_results");
    expect(text).not.toContain(azureKey);
  };

  it("answers a chat completion on the deployment path with the api-key header, billed exactly", async () => {
    let completion: OpenAI.Chat.ChatCompletion | undefined;
    const cost = await spent(async () => {
      completion = await client.chat.completions.create({
        model: "gpt-4o",
        messages: [{ role: "user", content: "one two three four five six seven" }],
        max_tokens: 5,
        reasoning_effort: "low",
      });
    });
    expect(completion!.model).toBe("gpt-4o");
    expect(completion!.choices[0]!.message.content).toBe("Echo: one two three four");
    expect(completion!.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    expectNoAzureFields(completion);
    expect(sent()).toEqual({
      path: deploymentPath("my-gpt4o", "chat/completions"),
      apiKey: azureKey,
      authorization: undefined,
    });
    expect(azure.requests[0]!.body).toEqual({
      model: "my-gpt4o",
      messages: [{ role: "user", content: "one two three four five six seven" }],
      max_tokens: 5,
      reasoning_effort: "low",
    });
    // 10 prompt tokens × 1 unit + 5 completion tokens × 2 units
    expect(cost).toBe(20);
  });

  it("serves Anthropic's Messages API translated to chat completions on the deployment path and the v1 surface", async () => {
    const anthropic = new Anthropic({ apiKey: client.apiKey, baseURL: gateway.url, maxRetries: 0 });
    let message: Anthropic.Message | undefined;
    const cost = await spent(async () => {
      message = await anthropic.messages.create({
        model: "gpt-4o",
        max_tokens: 5,
        messages: [{ role: "user", content: "one two three four five six seven" }],
      });
    });
    expect(sent()).toEqual({
      path: deploymentPath("my-gpt4o", "chat/completions"),
      apiKey: azureKey,
      authorization: undefined,
    });
    expect(azure.requests[0]!.body).toMatchObject({
      model: "my-gpt4o",
      messages: [{ role: "user", content: "one two three four five six seven" }],
    });
    expect(message!).toMatchObject({
      type: "message",
      model: "gpt-4o",
      content: [{ type: "text", text: "Echo: one two three four" }],
      stop_reason: "max_tokens",
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    expectNoAzureFields(message);
    expect(cost).toBe(20);

    const events: Anthropic.MessageStreamEvent[] = [];
    const streamed = await spent(async () => {
      const stream = await anthropic.messages.create({
        model: "gpt-4o-v1",
        max_tokens: 50,
        messages: [{ role: "user", content: "weather in Paris" }],
        stream: true,
      });
      for await (const event of stream) events.push(event);
    });
    expect(sent(1).path).toBe("/openai/v1/chat/completions");
    expectNoAzureFields(events);
    expect(events.at(-1)!.type).toBe("message_stop");
    const text = events
      .map((event) =>
        event.type === "content_block_delta" && event.delta.type === "text_delta" ? event.delta.text : "",
      )
      .join("");
    expect(text).toBe("Echo: weather in Paris");
    const delta = events.find((event) => event.type === "message_delta") as Anthropic.RawMessageDeltaEvent;
    expect(streamed).toBe(delta.usage.input_tokens! + 2 * delta.usage.output_tokens);
    expect(delta.usage.output_tokens).toBe(4);
  });

  it("calls a tool in JSON and in a stream, dropping Azure's filter annotations and first chunk", async () => {
    const json = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "weather in Paris" }],
      tools: [weatherTool],
    });
    expect(json.choices[0]!.finish_reason).toBe("tool_calls");
    expect(json.choices[0]!.message.tool_calls![0]).toMatchObject({
      type: "function",
      function: { name: "get_weather", arguments: '{"city":"weather in Paris"}' },
    });
    expectNoAzureFields(json);

    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    const cost = await spent(async () => {
      const stream = await client.chat.completions.create({
        model: "gpt-4o",
        messages: [{ role: "user", content: "weather in Paris" }],
        tools: [weatherTool],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk);
    });
    expectNoAzureFields(chunks);
    expect(chunks.every((chunk) => chunk.model === "gpt-4o")).toBe(true);
    const argumentsText = chunks
      .map((chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "")
      .join("");
    expect(argumentsText).toBe('{"city":"weather in Paris"}');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("tool_calls");
    const usage = chunks.at(-1)!.usage!;
    expect(usage.prompt_tokens).toBe(json.usage!.prompt_tokens);
    expect(cost).toBe(usage.prompt_tokens + 2 * usage.completion_tokens);
    expect(sent(1).path).toBe(deploymentPath("my-gpt4o", "chat/completions"));
  });

  it("answers a prompt the content filter refused as a completion finished by content_filter, billing nothing", async () => {
    let completion: OpenAI.Chat.ChatCompletion | undefined;
    expect(
      await spent(async () => {
        completion = await client.chat.completions.create({
          model: "gpt-4o",
          messages: [{ role: "user", content: "tell me about forbidden-topic" }],
        });
      }),
    ).toBe(0);
    expect(completion!.choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: azurePromptFilteredText },
        finish_reason: "content_filter",
      },
    ]);
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    expect(
      await spent(async () => {
        const stream = await client.chat.completions.create({
          model: "gpt-4o",
          messages: [{ role: "user", content: "tell me about forbidden-topic" }],
          stream: true,
        });
        for await (const chunk of stream) chunks.push(chunk);
      }),
    ).toBe(0);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual(["content_filter"]);
    expect(chunks[0]!.choices[0]!.delta.content).toBe(azurePromptFilteredText);
  });

  it("serves Responses on the v1 surface and on a preview api-version, and refuses it clearly on a GA deployment path", async () => {
    let answer: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      answer = await client.responses.create({ model: "gpt-4o-v1", input: "hello there" });
    });
    expect(answer!.output_text).toBe("Echo: hello there");
    expect(answer!.model).toBe("gpt-4o-v1");
    expect(sent()).toEqual({ path: "/openai/v1/responses", apiKey: azureKey, authorization: undefined });
    expect((azure.requests[0]!.body as { model: string }).model).toBe("my-gpt4o");
    expect(cost).toBe(answer!.usage!.input_tokens + 2 * answer!.usage!.output_tokens);

    const events: string[] = [];
    const stream = await client.responses.create({ model: "gpt-4o-preview", input: "hello there", stream: true });
    for await (const event of stream) events.push(event.type);
    expect(events.at(-1)).toBe("response.completed");
    expect(sent(1).path).toBe("/openai/responses?api-version=2025-04-01-preview");

    const refused = await spent(async () => {
      const error = await client.responses.create({ model: "gpt-4o", input: "hello" }).catch((caught) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
        `settings.api_version is "2024-10-21" (set it to "v1")`,
      );
    });
    expect(refused).toBe(0);
    expect(azure.requests).toHaveLength(2);
  });

  it("embeds in base64 (the SDK's default) and as floats on the deployment path", async () => {
    let embedded: OpenAI.Embeddings.CreateEmbeddingResponse | undefined;
    const cost = await spent(async () => {
      embedded = await client.embeddings.create({ model: "text-embedding-3-small", input: "a few words here" });
    });
    expect(embedded!.data[0]!.embedding.length).toBeGreaterThan(0);
    expect((azure.requests[0]!.body as { encoding_format: string }).encoding_format).toBe("base64");
    expect(sent().path).toBe(deploymentPath("my-embed", "embeddings"));
    expect(cost).toBe(embedded!.usage.prompt_tokens);
    const floats = await client.embeddings.create({
      model: "text-embedding-3-small",
      input: "a few words here",
      encoding_format: "float",
    });
    expect(floats.data[0]!.embedding).toEqual(embedded!.data[0]!.embedding);
  });

  it("generates and edits images on the deployment path, and a filtered prompt is 400 prompt_blocked", async () => {
    let answer: OpenAI.Images.ImagesResponse | undefined;
    const cost = await spent(async () => {
      answer = await client.images.generate({ model: "img-c-2", prompt: "a red fox", n: 2 });
    });
    expect(answer!.data).toEqual([
      { b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" },
      { b64_json: FAKE_IMAGE_B64, size: "1024x1024", output_format: "png" },
    ]);
    expectNoAzureFields(answer);
    expect(sent().path).toBe(deploymentPath("my-image", "images/generations"));
    // 2 images × 10,000 + 3 input tokens × 1 + 200 output tokens × 2
    expect(cost).toBe(20_403);

    const image = await toFile(Buffer.from(FAKE_IMAGE_B64, "base64"), "fox.png", { type: "image/png" });
    const edited = await client.images.edit({ model: "img-c-2", prompt: "make it blue", image });
    expect(edited.data).toHaveLength(1);
    expect(sent(1).path).toBe(deploymentPath("my-image", "images/edits"));

    const blocked: unknown = await client.images
      .generate({ model: "img-c-2", prompt: "forbidden-topic" })
      .catch((caught: unknown) => caught);
    expect(blocked).toBeInstanceOf(OpenAI.BadRequestError);
    expect((blocked as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("prompt_blocked");
  });

  it("synthesises speech and transcribes and translates audio on the deployment path, billed exactly", async () => {
    const input = "Hello from Azure";
    const cost = await spent(async () => {
      const audio = await client.audio.speech.create({ model: "speech-1", voice: "alloy", input });
      expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0);
    });
    expect(sent().path).toBe(deploymentPath("my-tts", "audio/speech"));
    expect(cost).toBe([...input].length);

    const audio = Buffer.alloc(64_000, 1);
    let duration = 0;
    const transcriptionCost = await spent(async () => {
      const verbose = await client.audio.transcriptions.create({
        file: await toFile(audio, "meeting.wav", { type: "audio/wav" }),
        model: "transcribe-1",
        response_format: "verbose_json",
      });
      duration = verbose.duration;
    });
    expect(sent(1).path).toBe(deploymentPath("my-whisper", "audio/transcriptions"));
    // per_second 0.0001 USD = 50 units per started second
    expect(transcriptionCost).toBe(50 * Math.ceil(duration));
    const translation = await client.audio.translations.create({
      file: await toFile(audio, "meeting.wav", { type: "audio/wav" }),
      model: "transcribe-1",
    });
    expect(translation.text.length).toBeGreaterThan(0);
    expect(sent(2).path).toBe(deploymentPath("my-whisper", "audio/translations"));
  });

  it("tests a channel with one token on its own api version, and a wrong key fails without echoing it", async () => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { size: 50 } } });
    const id = list.data!.data.items.find((channel) => channel.name === "azure-dated")!.id;
    const result = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id } },
      body: {},
    });
    expect(result.data!.data).toMatchObject({ success: true, model: "gpt-4o", message: "" });
    expect(sent().path).toBe(deploymentPath("my-gpt4o", "chat/completions"));
    expect(azure.requests[0]!.body).toMatchObject({ max_tokens: 1 });

    const wrongKey = "wrongAzureKey0000000000000000000000Zq";
    const created = await gateway.client.management.POST("/api/channel/", {
      body: {
        name: "azure-wrong",
        type: "azure",
        base_url: azure.url,
        key: wrongKey,
        models: ["gpt-4o-wrong"],
        model_mapping: { "gpt-4o-wrong": "my-gpt4o" },
        settings: { api_version: "v1" },
      },
    });
    const wrong = await gateway.client.management.POST("/api/channel/{id}/test", {
      params: { path: { id: created.data!.data.id } },
      body: {},
    });
    expect(wrong.data!.data.success).toBe(false);
    expect(wrong.data!.data.message).toContain("upstream answered 401");
    expect(JSON.stringify(wrong.data)).not.toContain(wrongKey);
    expect(sent(1).path).toBe("/openai/v1/chat/completions");
  });
});
