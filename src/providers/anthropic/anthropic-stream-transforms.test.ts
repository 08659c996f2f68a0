import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { formatAnthropicErrorEvent } from "../anthropic-wire/format-anthropic-error-event.js";
import { createOpenaiSchemaValidator } from "../../../test/support/create-openai-schema-validator.js";
import { formatChatStreamErrorFrame } from "../../http/format-chat-stream-error-frame.js";
import { replayUpstreamStream } from "../../../test/support/replay-upstream-stream.js";
import { ClaudeToChatStreamTransform } from "./chat/claude-to-chat-stream-transform.js";
import { createAnthropicMessagesStreamTransform } from "../anthropic-wire/create-anthropic-messages-stream-transform.js";

const validate = createOpenaiSchemaValidator();
const readFixture = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, index) => index);

async function passThrough(fixture: string, pieceStarts: readonly number[] = []) {
  const usage: MeteredUsage[] = [];
  const frames = await replayUpstreamStream(
    readFixture(fixture),
    pieceStarts,
    createAnthropicMessagesStreamTransform({
      clientModel: "my-claude",
      requestId: "req_fixture",
      onUsage: (value) => usage.push(value),
      onText: () => undefined,
    }),
    (message) => formatAnthropicErrorEvent(message, "req_fixture"),
  );
  return { frames, usage };
}

async function toChat(fixture: string, pieceStarts: readonly number[] = []) {
  const usage: MeteredUsage[] = [];
  const frames = await replayUpstreamStream(
    readFixture(fixture),
    pieceStarts,
    new ClaudeToChatStreamTransform({
      clientModel: "my-claude",
      clientWantsUsage: true,
      created: 1767312000,
      onUsage: (value) => usage.push(value),
      onText: () => undefined,
    }),
    formatChatStreamErrorFrame,
  );
  const payloads = frames.map((frame) => {
    const data = frame.slice("data: ".length, -2);
    if (data === "[DONE]") return data;
    const value = JSON.parse(data);
    expect(validate(value.error ? "ErrorResponse" : "ChatCompletionChunk", value)).toEqual([]);
    return value;
  });
  return { frames, payloads, usage };
}

const fixtures = [
  "claude-text.chunks.txt",
  "claude-thinking-tool.chunks.txt",
  "claude-error-mid-stream.chunks.txt",
  "claude-truncated.chunks.txt",
];

describe("Claude's stream passed through (recorded fake transcripts)", () => {
  it("puts the client's model name in message_start and reads usage from message_start and message_delta", async () => {
    const run = await passThrough("claude-text.chunks.txt");
    expect(run.frames[0]).toContain('"model":"my-claude"');
    expect(run.frames.slice(1).join("")).toBe(
      new TextDecoder().decode(readFixture("claude-text.chunks.txt")).split("\n\n").slice(1).join("\n\n"),
    );
    // 5 uncached input tokens + 2 written to the cache; 3 output tokens in the end.
    expect(run.usage.at(-1)).toEqual({
      promptTokens: 7,
      completionTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 2,
      reasoningTokens: 0,
    });
  });

  it("passes an upstream error event on as the end, and ends a stream cut before message_stop with one", async () => {
    const failed = await passThrough("claude-error-mid-stream.chunks.txt");
    expect(failed.frames.at(-1)).toMatch(/^event: error\ndata: .*overloaded_error/);
    const truncated = await passThrough("claude-truncated.chunks.txt");
    expect(truncated.frames.at(-1)).toBe(
      formatAnthropicErrorEvent("The upstream stream ended before the answer was finished.", "req_fixture"),
    );
  });
});

describe("Claude's stream → chat completion chunks (recorded fake transcripts)", () => {
  describe.each(fixtures)("%s", (fixture) => {
    it("emits the committed chunks, each valid, whatever the read boundaries", async () => {
      const run = await toChat(fixture);
      const expected = fixture.replace(".chunks.txt", ".chat.txt");
      await expect(run.frames.join("")).toMatchFileSnapshot(`./__fixtures__/expected/${expected}`);
      expect((await toChat(fixture, everyByte(readFixture(fixture)))).frames).toEqual(run.frames);
      expect(run.payloads.at(-1)).toBe("[DONE]");
    });
  });

  it("streams thinking as reasoning_content, the tool call with its arguments, and the usage chunk last", async () => {
    const run = await toChat("claude-thinking-tool.chunks.txt");
    const deltas = run.payloads.filter((payload) => payload !== "[DONE]" && payload.choices.length > 0);
    const reasoning = deltas.map((payload) => payload.choices[0].delta.reasoning_content ?? "").join("");
    expect(reasoning).toBe("Thinking about: Paris");
    const calls = deltas.flatMap((payload) => payload.choices[0].delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: "toolu_fake000001", function: { name: "get_weather" } });
    expect(
      JSON.parse(calls.map((call: { function: { arguments: string } }) => call.function.arguments).join("")),
    ).toEqual({ city: "Paris" });
    expect(deltas.at(-1).choices[0].finish_reason).toBe("tool_calls");
    // The fake counts the tool definition (2 words), the message (3) and "Paris"; 3 + 2 + 1 output pieces.
    expect(run.payloads.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 6, completion_tokens: 6 } });
  });
});
