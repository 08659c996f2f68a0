import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer, type FakeUpstream } from "./start-fake-anthropic-server.js";

const apiKey = "sk-ant-fake-key";
let fake: FakeUpstream;
let client: Anthropic;

beforeAll(async () => {
  fake = await startFakeAnthropicServer({ apiKey });
  client = new Anthropic({ apiKey, baseURL: fake.url, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const weatherTool = {
  name: "get_weather",
  description: "Current weather of a city.",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe("the fake Anthropic upstream through the official SDK", () => {
  it("answers a message with word-counted usage and checks x-api-key and anthropic-version", async () => {
    const message = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Say hello" }],
    });
    expect(message.content).toEqual([{ type: "text", text: "Echo: Say hello" }]);
    expect(message.stop_reason).toBe("end_turn");
    // system 2 words + one message (3 + 2 words); output three words.
    expect(message.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0 });
    // The SDK sends its key as a Bearer token; Claude Code sends x-api-key (checked through the gateway's tests).
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(fake.requests[0]!.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const wrongKey = new Anthropic({ apiKey: "sk-ant-wrong", baseURL: fake.url, maxRetries: 0 });
    await expect(
      wrongKey.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 5,
        messages: [{ role: "user", content: "x" }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("streams every event type in order, thinking signed, and the final message equals the JSON answer", async () => {
    const params = {
      model: "claude-sonnet-4-5",
      max_tokens: 2048,
      thinking: { type: "enabled" as const, budget_tokens: 1024 },
      messages: [{ role: "user" as const, content: "Think of Paris" }],
    };
    const stream = client.messages.stream(params);
    const types: string[] = [];
    stream.on("streamEvent", (event) => {
      types.push(event.type === "content_block_delta" ? event.delta.type : event.type);
    });
    const streamed = await stream.finalMessage();
    expect(types).toEqual([
      "message_start",
      "content_block_start",
      ...Array(5).fill("thinking_delta"),
      "signature_delta",
      "content_block_stop",
      "content_block_start",
      ...Array(4).fill("text_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    fake.reset();
    const whole = await client.messages.create(params);
    expect(streamed.content).toEqual(whole.content);
    expect(streamed.usage.output_tokens).toBe(whole.usage.output_tokens);
  });

  it("runs a tool loop with thinking across turns and refuses an edited signature or a missing thinking block", async () => {
    const thinking = { type: "enabled" as const, budget_tokens: 1024 };
    const first = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 2048,
      thinking,
      tools: [weatherTool],
      messages: [{ role: "user", content: "Paris" }],
    });
    expect(first.stop_reason).toBe("tool_use");
    const toolUse = first.content.find((block) => block.type === "tool_use")!;
    expect(toolUse).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
    const turn = (assistantContent: typeof first.content) =>
      client.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 2048,
        thinking,
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Paris" },
          { role: "assistant", content: assistantContent },
          { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "18 degrees" }] },
        ],
      });
    const second = await turn(first.content);
    expect(second.content.at(-1)).toEqual({ type: "text", text: "Tool result: 18 degrees" });

    const edited = first.content.map((block) => (block.type === "thinking" ? { ...block, thinking: "edited" } : block));
    await expect(turn(edited)).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(turn(first.content.filter((block) => block.type !== "thinking"))).rejects.toThrow(
      /Expected `thinking` or `redacted_thinking`/,
    );
  });

  it("reports cache writes, then cache reads, for a prompt with a cache_control breakpoint", async () => {
    const create = () =>
      client.messages.create({
        model: "claude-sonnet-4-5",
        max_tokens: 10,
        system: [{ type: "text", text: "a long shared preamble of six words", cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: "hi" }],
      });
    expect((await create()).usage).toMatchObject({
      input_tokens: 4,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 0,
    });
    expect((await create()).usage).toMatchObject({
      input_tokens: 4,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 7,
    });
  });

  it("counts tokens, and answers faults in Anthropic's envelope with its error types", async () => {
    const counted = await client.messages.countTokens({
      model: "claude-sonnet-4-5",
      messages: [{ role: "user", content: "one two three" }],
    });
    expect(counted).toEqual({ input_tokens: 6 });

    fake.setFaults({ status: 429, retryAfterSeconds: 7, times: 1 });
    const limited = await client.messages
      .create({ model: "claude-sonnet-4-5", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers.get("retry-after")).toBe("7");
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({
      type: "error",
      error: { type: "rate_limit_error" },
    });

    fake.setFaults({ status: 529, times: 1 });
    const overloaded = await client.messages
      .create({ model: "claude-sonnet-4-5", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((error: unknown) => error);
    expect((overloaded as { status: number }).status).toBe(529);
    expect((overloaded as { error: unknown }).error).toMatchObject({ error: { type: "overloaded_error" } });

    await expect(
      client.messages.create({ model: "missing-model", max_tokens: 5, messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it("breaks a stream after its first event when told to, and sends an error event on [fail-midstream]", async () => {
    fake.setFaults({ resetMidStreamAfterChunks: 1, times: 1 });
    const broken = client.messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
    });
    await expect(broken.finalMessage()).rejects.toThrow();

    const failing = client.messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 50,
      messages: [{ role: "user", content: "please [fail-midstream]" }],
    });
    await expect(failing.finalMessage()).rejects.toThrow(/Overloaded/);
  });
});
