import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

describe.each(testDatabases)("OpenAI-style relay through the official SDK on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "upstream-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "main",
            type: "openai",
            base_url: upstream.url,
            key: "upstream-secret",
            models: ["model-a", "model-e", "speech-1", "transcribe-1"],
            model_mapping: { "model-a": "upstream-model-a" },
          },
        ],
        // speech-1: `input` is read as USD per 1M input characters
        pricing: {
          "model-a": { input: 2, output: 4 },
          "model-e": { input: 2, output: 0 },
          "speech-1": { input: 15 },
          "transcribe-1": { per_second: 0.0001 },
        },
      },
    });
    const apiKey = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = apiKey.id;
    client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it("answers a chat completion, maps the model upstream, and bills 10 prompt + 5 completion tokens at 2/4 USD per 1M as 20 units", async () => {
    const before = await readToken(gateway, tokenId);
    // prompt_tokens = 3 + words ("one two three four five six seven" = 7) = 10; reply "Echo: one … seven" = 8 words, capped to 5.
    const completion = await client.chat.completions.create({
      model: "model-a",
      messages: [{ role: "user", content: "one two three four five six seven" }],
      max_tokens: 5,
    });
    expect(completion.model).toBe("model-a");
    expect(completion.choices[0]!.message.content).toBe("Echo: one two three four");
    expect(completion.choices[0]!.finish_reason).toBe("length");
    expect(completion.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    expect((upstream.requests[0]!.body as { model: string }).model).toBe("upstream-model-a");
    // exactly what the client sent, with the mapped model: no spec defaults (temperature 0.7) injected upstream
    expect(upstream.requests[0]!.body).toEqual({
      model: "upstream-model-a",
      messages: [{ role: "user", content: "one two three four five six seven" }],
      max_tokens: 5,
    });
    expect(upstream.requests[0]!.headers.authorization).toBe("Bearer upstream-secret");
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBe(20);
    expect(after.used_quota - before.used_quota).toBe(20);
  });

  it("streams chat chunks, always asks the upstream for usage and hides the usage chunk from a client that did not ask", async () => {
    const before = await readToken(gateway, tokenId);
    const stream = await client.chat.completions.create({
      model: "model-a",
      messages: [{ role: "user", content: "hello world" }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Echo: hello world");
    expect(chunks.every((chunk) => chunk.model === "model-a")).toBe(true);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect((upstream.requests[0]!.body as { stream_options: unknown }).stream_options).toEqual({ include_usage: true });
    // prompt 3 + 2 = 5 tokens × 2 + completion 3 × 4 = 22 micro-USD... = 11 units
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBe(11);
  });

  it("passes the usage chunk to a client that asked for it", async () => {
    const stream = await client.chat.completions.create({
      model: "model-a",
      messages: [{ role: "user", content: "hello world" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
  });

  it("round-trips a tool call in both phases, streaming the second", async () => {
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
      model: "model-a",
      messages: [{ role: "user", content: "Paris" }],
      tools,
    });
    const toolCall = first.choices[0]!.message.tool_calls![0]! as {
      id: string;
      function: { name: string; arguments: string };
    };
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(toolCall.function).toEqual({ name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) });
    const second = await client.chat.completions.create({
      model: "model-a",
      stream: true,
      tools,
      messages: [
        { role: "user", content: "Paris" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: toolCall.id, type: "function", function: toolCall.function }],
        },
        { role: "tool", tool_call_id: toolCall.id, content: "sunny 21C" },
      ],
    });
    let text = "";
    for await (const chunk of second) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Tool result: sunny 21C");
  });

  it("streams Responses events in order and passes previous_response_id through", async () => {
    const first = await client.responses.create({ model: "model-a", input: "hello there" });
    expect(first.output_text).toBe("Echo: hello there");
    const stream = await client.responses.create({
      model: "model-a",
      input: "again",
      previous_response_id: first.id,
      stream: true,
    });
    const types: string[] = [];
    let text = "";
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    expect(text).toBe(`Echo: again (after ${first.id})`);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types.indexOf("response.output_text.delta")).toBeGreaterThan(types.indexOf("response.output_item.added"));
  });

  it("returns embeddings the SDK decodes from base64, equal to the float form", async () => {
    const viaSdk = await client.embeddings.create({ model: "model-e", input: "vector me" });
    const asFloat = await client.embeddings.create({ model: "model-e", input: "vector me", encoding_format: "float" });
    expect((upstream.requests[0]!.body as { encoding_format: string }).encoding_format).toBe("base64");
    expect(viaSdk.data[0]!.embedding).toHaveLength(8);
    expect(viaSdk.data[0]!.embedding).toEqual(asFloat.data[0]!.embedding);
    expect(viaSdk.usage.prompt_tokens).toBe(2);
  });

  it("turns enable_thinking off when not streaming, keeps `parameters` in its object, and keeps our own fields out of the upstream body", async () => {
    const parameters = {
      incremental_output: true,
      enable_search: true,
      search_options: { region: "us", recency_days: 7 },
    };
    await client.chat.completions.create({
      model: "model-a",
      messages: [{ role: "user", content: "hi" }],
      // vendor-family fields the OpenAI SDK passes through as extra body fields
      ...({
        enable_thinking: true,
        parameters,
        svc_thinking_to_content: true,
        extra_body: { native: { a: 1 } },
      } as object),
    });
    const sent = upstream.requests[0]!.body as Record<string, unknown>;
    expect(sent.enable_thinking).toBe(false);
    expect(sent.parameters).toEqual(parameters);
    expect(sent).not.toHaveProperty("svc_thinking_to_content");
    expect(sent).not.toHaveProperty("extra_body");
    expect(sent).not.toHaveProperty("incremental_output");
  });

  it("keeps enable_thinking on for streams, and with svc_thinking_to_content inlines the reasoning into content", async () => {
    const stream = await client.chat.completions.create({
      model: "model-a",
      messages: [{ role: "user", content: "deep question" }],
      stream: true,
      ...({ enable_thinking: true, svc_thinking_to_content: true } as object),
    });
    let content = "";
    let reasoning = "";
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta?.content ?? "";
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
    }
    expect((upstream.requests[0]!.body as Record<string, unknown>).enable_thinking).toBe(true);
    expect(reasoning).toBe("");
    expect(content).toBe("<think>\nThinking about: deep question\n</think>\n\nEcho: deep question");
  });

  it("inlines reasoning into content for a non-streaming answer with svc_thinking_to_content", async () => {
    const completion = await client.chat.completions.create({
      model: "model-a",
      messages: [{ role: "user", content: "deep question" }],
      ...({ thinking: { type: "enabled" }, svc_thinking_to_content: true } as object),
    });
    expect(completion.choices[0]!.message.content).toBe(
      "<think>\nThinking about: deep question\n</think>\n\nEcho: deep question",
    );
    expect(completion.choices[0]!.message).not.toHaveProperty("reasoning_content");
    expect((upstream.requests[0]!.body as Record<string, unknown>).thinking).toEqual({ type: "enabled" });
  });

  it("synthesises speech: the upstream's audio bytes and content type pass through, billed per input character", async () => {
    const before = await readToken(gateway, tokenId);
    const audio = await client.audio.speech.create({
      model: "speech-1",
      voice: "alloy",
      input: "hello world",
      response_format: "wav",
    });
    expect(audio.headers.get("content-type")).toBe("audio/wav");
    const bytes = Buffer.from(await audio.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("ascii")).toBe("RIFF");
    expect(bytes.subarray(8, 12).toString("ascii")).toBe("WAVE");
    expect(upstream.requests[0]!.body).toEqual({
      model: "speech-1",
      voice: "alloy",
      input: "hello world",
      response_format: "wav",
    });
    // 11 characters × 15 USD per 1M = 165 micro-USD = 82.5 units, rounded half up to 83
    const after = await readToken(gateway, tokenId);
    expect(before.remain_quota - after.remain_quota).toBe(83);
  });

  it("transcribes and translates multipart audio, billed by the upstream's reported duration, in every response format", async () => {
    const before = await readToken(gateway, tokenId);
    // the fake counts 32,000 bytes per second: 64,000 bytes are 2 seconds
    const audio = Buffer.alloc(64_000, 1);
    const transcription = await client.audio.transcriptions.create({
      file: await toFile(audio, "meeting.wav", { type: "audio/wav" }),
      model: "transcribe-1",
    });
    expect(transcription.text).toBe("Transcription of meeting.wav (64000 bytes).");
    const sent = upstream.requests[0]!;
    expect(String(sent.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
    // 2 s × 0.0001 USD = 0.0002 USD = 100 units
    expect(before.remain_quota - (await readToken(gateway, tokenId)).remain_quota).toBe(100);

    const subtitles = await client.audio.transcriptions.create({
      file: await toFile(audio, "meeting.wav", { type: "audio/wav" }),
      model: "transcribe-1",
      response_format: "srt",
    });
    expect(subtitles).toBe("1\n00:00:00,000 --> 00:00:02,000\nTranscription of meeting.wav (64000 bytes).\n");
    const translation = await client.audio.translations.create({
      file: await toFile(audio, "talk.wav", { type: "audio/wav" }),
      model: "transcribe-1",
      response_format: "text",
    });
    expect(translation).toBe("Translation of talk.wav (64000 bytes).\n");
  });

  it("refuses a transcription without a file part in the OpenAI envelope", async () => {
    const form = new FormData();
    form.append("model", "transcribe-1");
    const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}` },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: "invalid_request_error",
    });
  });

  it("answers an unknown model with 404 model_not_found in the OpenAI envelope (a mistake the SDK does not retry)", async () => {
    const error = await client.chat.completions
      .create({ model: "nope", messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      message: "no available channel for model nope",
      type: "invalid_request_error",
      code: "model_not_found",
    });
  });
});
