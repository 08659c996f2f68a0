import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { createEmbeddingVector } from "./create-embedding-vector.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";

// The official SDK is the strictest client we have: if it parses the fake, so will the gateway's users.
let upstream: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer({ apiKey: "sk-fake" });
  client = new OpenAI({ apiKey: "sk-fake", baseURL: `${upstream.url}/v1`, maxRetries: 0 });
});
afterAll(() => upstream.close());

describe("the openai SDK against the fake", () => {
  it("creates and streams chat completions", async () => {
    const completion = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0].message.content).toBe("Echo: hi");
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi there" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let totalTokens = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      totalTokens = chunk.usage?.total_tokens ?? totalTokens;
    }
    expect(text).toBe("Echo: hi there");
    expect(totalTokens).toBe(8);
  });

  it("accumulates a streamed tool call", async () => {
    const runner = client.chat.completions.stream({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Paris, France" }],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
        },
      ],
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({
      type: "function",
      function: { name: "get_weather", arguments: '{"city":"Paris, France"}' },
    });
  });

  it("reads Responses, streamed and not", async () => {
    const response = await client.responses.create({ model: "gpt-4o-mini", input: "hello" });
    expect(response.output_text).toBe("Echo: hello");
    const stream = await client.responses.create({
      model: "gpt-4o-mini",
      input: "hello",
      stream: true,
      previous_response_id: response.id,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe("response.completed");
  });

  it("decodes the default base64 embeddings to the float vector", async () => {
    const embedding = await client.embeddings.create({ model: "text-embedding-3-small", input: "abc" });
    expect(upstream.requests.at(-1)?.body).toMatchObject({ encoding_format: "base64" });
    expect(embedding.data[0].embedding).toEqual(createEmbeddingVector("abc", 8));
  });

  it("uploads a transcription and downloads speech", async () => {
    const transcription = await client.audio.transcriptions.create({
      model: "transcribe-1",
      file: await toFile(Buffer.alloc(10), "clip.wav"),
    });
    expect(transcription.text).toBe("Transcription of clip.wav (10 bytes).");
    const speech = await client.audio.speech.create({
      model: "speech-1",
      input: "hi",
      voice: "alloy",
      response_format: "wav",
    });
    expect(speech.headers.get("content-type")).toBe("audio/wav");
  });

  it("surfaces the fake's errors as SDK errors with status and code", async () => {
    upstream.setFaults({ status: 429, retryAfterSeconds: 1, times: 1 });
    const failure = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "x" }] })
      .catch((error) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failure.code).toBe("rate_limit_exceeded");
  });
});
