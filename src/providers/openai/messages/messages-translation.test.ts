import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { loadBundledSpec } from "../../../http/load-bundled-spec.js";
import type { CreateMessageRequest } from "../../contract/messages-call.js";
import { replayUpstreamStream } from "../../../../test/support/replay-upstream-stream.js";
import { formatAnthropicErrorEvent } from "../../anthropic-wire/format-anthropic-error-event.js";
import { ChatToMessagesStreamTransform } from "../../anthropic-wire/chat-to-messages-stream-transform.js";
import { convertChatCompletionToMessage } from "../../anthropic-wire/convert-chat-completion-to-message.js";
import { convertMessagesRequestToChat } from "../../anthropic-wire/convert-messages-request-to-chat.js";

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(loadBundledSpec("anthropic"), "anthropic.json");
const validStreamEvent = ajv.getSchema("anthropic.json#/components/schemas/MessageStreamEvent")!;
const validMessage = ajv.getSchema("anthropic.json#/components/schemas/Message")!;

const readFixture = (name: string) => new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));
const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, index) => index);

async function replay(fixture: string, pieceStarts: readonly number[] = []) {
  const texts: string[] = [];
  const usage: unknown[] = [];
  const frames = await replayUpstreamStream(
    readFixture(fixture),
    pieceStarts,
    new ChatToMessagesStreamTransform({
      clientModel: "claude-on-openai",
      requestId: "req_fixture",
      promptTokenEstimate: 42,
      onUsage: (value) => usage.push(value),
      onText: (text) => texts.push(text),
    }),
    (message) => formatAnthropicErrorEvent(message, "req_fixture"),
  );
  const events = frames.map((frame) => {
    const match = /^event: (\S+)\ndata: (.*)\n\n$/s.exec(frame);
    expect(match, frame).not.toBeNull();
    const data = JSON.parse(match![2]!);
    expect(data.type).toBe(match![1]);
    expect(validStreamEvent(data), JSON.stringify(validStreamEvent.errors)).toBe(true);
    return data;
  });
  return { frames, events, texts, usage };
}

const streamCases = [
  ["chat-text.chunks.txt", "messages-text.txt"],
  ["chat-tool-calls.chunks.txt", "messages-tool-calls.txt"],
  ["chat-reasoning.chunks.txt", "messages-reasoning.txt"],
  ["chat-error-mid-stream.chunks.txt", "messages-error-mid-stream.txt"],
  ["chat-truncated.chunks.txt", "messages-truncated.txt"],
  ["chat-malformed.chunks.txt", "messages-malformed.txt"],
] as const;

describe("chat completion chunks → Anthropic's stream events (recorded upstream fixtures)", () => {
  describe.each(streamCases)("%s → %s", (fixture, expected) => {
    it("emits the committed events, each valid, with the same frames whatever the read boundaries", async () => {
      const run = await replay(fixture);
      await expect(run.frames.join("")).toMatchFileSnapshot(`./__fixtures__/expected/${expected}`);
      expect((await replay(fixture, everyByte(readFixture(fixture)))).frames).toEqual(run.frames);
    });
  });

  it("opens with the gateway's estimate and gives the exact counts in message_delta, in Anthropic's order", async () => {
    const run = await replay("chat-tool-calls.chunks.txt");
    expect(run.events.map((event) => event.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(run.events[0].message.usage).toEqual({ input_tokens: 42, output_tokens: 0 });
    // 82 prompt tokens of which 64 cached: Anthropic reports the cached part apart.
    expect(run.events.at(-2)).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { input_tokens: 18, output_tokens: 51, cache_creation_input_tokens: 0, cache_read_input_tokens: 64 },
    });
    const tools = run.events
      .filter((event) => event.type === "content_block_start")
      .map((event) => event.content_block);
    expect(tools).toEqual([
      { type: "tool_use", id: "call_Vq3nR8xKp2LmT7wYb4sDe9Fh", name: "get_weather", input: {} },
      { type: "tool_use", id: "call_Hk7sW2qZc9XnB3vLm5pRt8Ja", name: "get_time", input: {} },
    ]);
    const argumentsOf = (index: number) =>
      run.events
        .filter((event) => event.type === "content_block_delta" && event.index === index)
        .map((event) => event.delta.partial_json)
        .join("");
    expect(JSON.parse(argumentsOf(0))).toEqual({ city: "Paris" });
    expect(JSON.parse(argumentsOf(1))).toEqual({ timezone: "Europe/Paris" });
    expect(run.usage).toEqual([{ promptTokens: 82, completionTokens: 51, cachedTokens: 64, reasoningTokens: 0 }]);
  });

  it("puts reasoning in a thinking block before the text", async () => {
    const run = await replay("chat-reasoning.chunks.txt");
    const starts = run.events.filter((event) => event.type === "content_block_start");
    expect(starts.map((event) => event.content_block.type)).toEqual(["thinking", "text"]);
    expect(run.events.some((event) => event.delta?.type === "thinking_delta")).toBe(true);
  });

  it("ends a stream cut short or broken upstream with an error event and no message_stop", async () => {
    for (const fixture of [
      "chat-truncated.chunks.txt",
      "chat-error-mid-stream.chunks.txt",
      "chat-malformed.chunks.txt",
    ]) {
      const run = await replay(fixture);
      expect(run.events.at(-1).type, fixture).toBe("error");
      expect(
        run.events.some((event) => event.type === "message_stop"),
        fixture,
      ).toBe(false);
    }
  });
});

describe("a Messages request → a chat completions body", () => {
  it("maps system, blocks, images, documents, tool turns, tool_choice, thinking and stop sequences", () => {
    const request: CreateMessageRequest = {
      model: "claude-on-openai",
      max_tokens: 4096,
      system: [
        { type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } },
        { type: "text", text: "Answer in French." },
      ],
      stop_sequences: ["END"],
      temperature: 0.5,
      top_k: 5,
      metadata: { user_id: "user-7" },
      thinking: { type: "enabled", budget_tokens: 2048 },
      tools: [{ name: "get_weather", description: "Weather.", input_schema: { type: "object", properties: {} } }],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Look:" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            { type: "image", source: { type: "url", url: "https://example.org/cat.png" } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Need weather.", signature: "sig" },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "18 C" }] },
            { type: "text", text: "And tomorrow?" },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "boom", is_error: true }] },
      ],
    };
    expect(convertMessagesRequestToChat(request, "gpt-upstream")).toEqual({
      model: "gpt-upstream",
      max_tokens: 4096,
      temperature: 0.5,
      stop: ["END"],
      user: "user-7",
      reasoning_effort: "medium",
      tools: [
        {
          type: "function",
          function: { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: {} } },
        },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
      messages: [
        { role: "system", content: "You are terse.\n\nAnswer in French." },
        {
          role: "user",
          content: [
            { type: "text", text: "Look:" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.org/cat.png" } },
            { type: "file", file: { filename: "document.pdf", file_data: "data:application/pdf;base64,JVBERi0=" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          reasoning_content: "Need weather.",
          tool_calls: [
            { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "18 C" },
        { role: "user", content: "And tomorrow?" },
        { role: "tool", tool_call_id: "toolu_2", content: "Error: boom" },
      ],
    });
  });

  it("streams with usage requested, and maps the other tool choices", () => {
    const base = { model: "m", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };
    expect(convertMessagesRequestToChat({ ...base, stream: true }, "u")).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const choice = (tool_choice: CreateMessageRequest["tool_choice"]) =>
      convertMessagesRequestToChat({ ...base, tool_choice }, "u").tool_choice;
    expect(choice({ type: "auto" })).toBe("auto");
    expect(choice({ type: "none" })).toBe("none");
    expect(choice({ type: "tool", name: "f" })).toEqual({ type: "function", function: { name: "f" } });
  });

  it("refuses what chat completions cannot carry with a 400 naming the field", () => {
    const base = { model: "m", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };
    expect(() =>
      convertMessagesRequestToChat({ ...base, tools: [{ type: "web_search_20250305", name: "web_search" }] }, "u"),
    ).toThrow(expect.objectContaining({ status: 400, param: "tools.0.type" }));
    expect(() =>
      convertMessagesRequestToChat(
        {
          ...base,
          messages: [
            { role: "user", content: [{ type: "document", source: { type: "url", url: "https://x/a.pdf" } }] },
          ],
        },
        "u",
      ),
    ).toThrow(/messages\.0\.content\.0: a document block with a url source/);
  });
});

describe("a chat completion → Anthropic's message", () => {
  it("maps reasoning, text, tool calls, the finish reason and cached usage", () => {
    const message = convertChatCompletionToMessage(
      {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "gpt-upstream",
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: "Checking.",
              reasoning_content: "Think.",
              tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
            },
          },
        ],
        usage: {
          prompt_tokens: 30,
          completion_tokens: 7,
          total_tokens: 37,
          prompt_tokens_details: { cached_tokens: 10 },
        },
      } as never,
      "claude-on-openai",
    );
    expect(validMessage(message), JSON.stringify(validMessage.errors)).toBe(true);
    expect(message).toEqual({
      id: "msg_chatcmpl-1",
      type: "message",
      role: "assistant",
      model: "claude-on-openai",
      content: [
        { type: "thinking", thinking: "Think.", signature: "" },
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "call_1", name: "f", input: { a: 1 } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 10 },
    });
  });
});
