import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";
import { runNativeChatStream } from "../../../../test/support/run-native-chat-stream.js";

const validate = createOpenaiSchemaValidator();
const readFixture = (name: string) => new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));
const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, index) => index);
const every = (step: number, bytes: Uint8Array) =>
  Array.from({ length: Math.ceil(bytes.length / step) }, (_, index) => index * step);

type Event = { data: "[DONE]" } | { data: Record<string, any> };

/** Checks the framing and every chunk against the spec, then returns the events. */
function parseFrames(frames: string[]): Event[] {
  return frames.map((frame) => {
    expect(frame).toMatch(/^data: [^\n]*\n\n$/);
    const data = frame.slice("data: ".length, -2);
    if (data === "[DONE]") return { data };
    const value = JSON.parse(data) as Record<string, any>;
    expect(validate(value.error ? "ErrorResponse" : "ChatCompletionChunk", value)).toEqual([]);
    return { data: value };
  });
}

const cases = [
  { fixture: "stream-text.chunks.txt", expected: "stream-text.chat.txt", options: {} },
  { fixture: "stream-text.chunks.txt", expected: "stream-text.no-usage.chat.txt", options: { includeUsage: false } },
  {
    fixture: "stream-thinking.chunks.txt",
    expected: "stream-thinking.include-thoughts.chat.txt",
    options: { includeThoughts: true, model: "gmx-3.1-pro-preview-thinking" },
  },
  {
    fixture: "stream-thinking.chunks.txt",
    expected: "stream-thinking.exclude-thoughts.chat.txt",
    options: { includeThoughts: false, model: "gmx-3.1-pro-preview" },
  },
  { fixture: "stream-function-call.chunks.txt", expected: "stream-function-call.chat.txt", options: {} },
  {
    fixture: "stream-image.chunks.txt",
    expected: "stream-image.chat.txt",
    options: { model: "gmx-3.1-flash-image-preview" },
  },
  { fixture: "stream-blocked-prompt.chunks.txt", expected: "stream-blocked-prompt.chat.txt", options: {} },
  { fixture: "stream-safety.chunks.txt", expected: "stream-safety.chat.txt", options: {} },
  { fixture: "stream-max-tokens.chunks.txt", expected: "stream-max-tokens.chat.txt", options: {} },
  { fixture: "stream-malformed.chunks.txt", expected: "stream-malformed.chat.txt", options: {} },
  { fixture: "stream-error-mid-stream.chunks.txt", expected: "stream-error-mid-stream.chat.txt", options: {} },
  { fixture: "stream-truncated.chunks.txt", expected: "stream-truncated.chat.txt", options: {} },
  { fixture: "stream-two-candidates.chunks.txt", expected: "stream-two-candidates.chat.txt", options: {} },
  {
    fixture: "stream-text-signature.chunks.txt",
    expected: "stream-text-signature.include-thoughts.chat.txt",
    options: { includeThoughts: true, model: "gmx-3-flash-preview" },
  },
  {
    fixture: "stream-signed-text-and-call.chunks.txt",
    expected: "stream-signed-text-and-call.chat.txt",
    options: { model: "gmx-3-flash-preview" },
  },
];

describe("the native → chat stream through the relay's pipe", () => {
  describe.each(cases)("$fixture → $expected", ({ fixture, expected, options }) => {
    it("emits the committed frames, each a valid chunk, with one id, [DONE] last and usage reported once", async () => {
      const bytes = readFixture(fixture);
      const run = await runNativeChatStream(bytes, [], options);
      await expect(run.frames.join("")).toMatchFileSnapshot(`../__fixtures__/expected/${expected}`);
      const events = parseFrames(run.frames);
      expect(events.at(-1)).toEqual({ data: "[DONE]" });
      expect(events.filter((event) => event.data === "[DONE]")).toHaveLength(1);
      const chunks = events.flatMap((event) => (event.data !== "[DONE]" && !event.data.error ? [event.data] : []));
      expect(new Set(chunks.map((chunk) => chunk.id)).size).toBeLessThanOrEqual(1);
      expect(new Set(chunks.map((chunk) => `${chunk.created} ${chunk.model}`)).size).toBeLessThanOrEqual(1);
      const firstDeltaPerChoice = new Map<number, Record<string, unknown>>();
      for (const chunk of chunks)
        for (const choice of chunk.choices)
          if (!firstDeltaPerChoice.has(choice.index)) firstDeltaPerChoice.set(choice.index, choice.delta);
      for (const delta of firstDeltaPerChoice.values()) expect(delta.role).toBe("assistant");
      expect(run.usageReports).toHaveLength(1);
    });

    it("gives the same frames whatever the upstream read boundaries (1 byte, 5 bytes)", async () => {
      const bytes = readFixture(fixture);
      const whole = await runNativeChatStream(bytes, [], options);
      expect((await runNativeChatStream(bytes, everyByte(bytes), options)).frames).toEqual(whole.frames);
      expect((await runNativeChatStream(bytes, every(5, bytes), options)).frames).toEqual(whole.frames);
    });
  });

  it("hands a text signature that arrives on an empty last part out on that delta, never dropped as empty", async () => {
    const run = await runNativeChatStream(readFixture("stream-text-signature.chunks.txt"), [], {
      model: "gmx-3-flash-preview",
    });
    const chunks = parseFrames(run.frames).flatMap((event) => (event.data === "[DONE]" ? [] : [event.data]));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: "assistant", content: "Hello" },
      { content: " from the gateway." },
      {
        content: "",
        extra_content: {
          google: { thought_signature: "EjQKMgEMOdbHxZ1r9kq0b3dXbPq8Tg5yH2mVjR1cWm4pZs7LnAq3oE6iUf0tKd8gYw==" },
        },
      },
      {},
      undefined,
    ]);
    expect(chunks[3]!.choices[0].finish_reason).toBe("stop");
  });

  it("joins a UTF-8 character and a CRLF pair split between reads", async () => {
    const bytes = readFixture("stream-text.chunks.txt");
    const pudding = Buffer.from(bytes).indexOf(Buffer.from("🍮"));
    const firstBreak = Buffer.from(bytes).indexOf(Buffer.from("\r\n\r\n"));
    const run = await runNativeChatStream(
      bytes,
      [firstBreak + 1, firstBreak + 3, pudding + 1, pudding + 2, pudding + 3],
      { includeUsage: false },
    );
    const text = parseFrames(run.frames).flatMap((event) =>
      event.data === "[DONE]" ? [] : event.data.choices.map((choice: any) => choice.delta.content ?? ""),
    );
    expect(text.join("")).toBe("Crème brûlée is a naïve delight — 日本でも人気 🍮!");
  });

  it("sends each tool call whole in its first delta, with index, id, type and name, and finishes with tool_calls", async () => {
    const run = await runNativeChatStream(readFixture("stream-function-call.chunks.txt"), []);
    const events = parseFrames(run.frames).map((event) => event.data);
    expect(events).toHaveLength(6);
    const [text, firstCall, secondCall, finish, usage, done] = events as any[];
    expect(text.choices).toEqual([
      { index: 0, delta: { role: "assistant", content: "Checking the weather." }, finish_reason: null },
    ]);
    expect(firstCall.choices[0].delta.tool_calls).toEqual([
      {
        index: 0,
        // The first call of a parallel set carries the turn's thought signature in its id; the second has none.
        id: "call_1qgl9WBYy17yNV4rjNpVPRYh__thought__CqYCAcu98PBq7eXhQ0YpLw3ZFAhC2xQk9RCHr4vQkRkCuMVOsJ3S9RfoP0Q0zAF1Bl2fXg==",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris","unit":"celsius"}' },
      },
    ]);
    expect(secondCall.choices[0].delta.tool_calls).toEqual([
      {
        index: 1,
        id: expect.stringMatching(/^call_\w{24}$/),
        type: "function",
        function: { name: "get_time", arguments: '{"timezone":"Europe/Paris"}' },
      },
    ]);
    expect(firstCall.choices[0].delta.tool_calls[0].id).not.toBe(secondCall.choices[0].delta.tool_calls[0].id);
    expect(finish.choices).toEqual([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({
      prompt_tokens: 58,
      completion_tokens: 71,
      total_tokens: 129,
      completion_tokens_details: { reasoning_tokens: 40, text_tokens: 31 },
    });
    expect(done).toBe("[DONE]");
  });

  it("reports the last usage to onUsage even when the client did not ask for the usage chunk", async () => {
    const run = await runNativeChatStream(readFixture("stream-image.chunks.txt"), [], { includeUsage: false });
    expect(run.frames.some((frame) => frame.includes('"usage"'))).toBe(false);
    expect(run.usageReports).toEqual([
      { promptTokens: 9, completionTokens: 1294, cachedTokens: 0, reasoningTokens: 0, imageOutputTokens: 1290 },
    ]);
  });

  it("turns an upstream error object mid-stream into one error frame then [DONE], billing what was seen", async () => {
    const run = await runNativeChatStream(readFixture("stream-error-mid-stream.chunks.txt"), []);
    const events = parseFrames(run.frames).map((event) => event.data) as any[];
    expect(events.slice(1)).toEqual([
      {
        error: {
          message: "The upstream failed mid-stream (UNAVAILABLE): The model is overloaded. Please try again later.",
          type: "upstream_error",
          code: "upstream_error",
        },
      },
      "[DONE]",
    ]);
    expect(run.usageReports).toEqual([{ promptTokens: 13, completionTokens: 3, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("stops at a malformed fragment: nothing after it reaches the client", async () => {
    const run = await runNativeChatStream(readFixture("stream-malformed.chunks.txt"), []);
    expect(run.frames.join("")).not.toContain("never shown");
    expect(run.frames.at(-2)).toContain('"code":"bad_response"');
  });

  it("reports usage once, as seen so far, when the client leaves mid-stream", async () => {
    const bytes = readFixture("stream-text.chunks.txt");
    const firstEventEnd = Buffer.from(bytes).indexOf(Buffer.from("\r\n\r\n")) + 4;
    const run = await runNativeChatStream(bytes, [firstEventEnd], { closeAfterWrites: 1 });
    expect(run.frames.join("")).toContain("Crème brûlée ");
    expect(run.frames.join("")).not.toContain("[DONE]");
    expect(run.usageReports).toEqual([{ promptTokens: 7, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("uses a chatcmpl- id on every chunk when the upstream sends no responseId", async () => {
    const body =
      `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: "Hi" }], role: "model" } }] })}\r\n\r\n` +
      `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: "!" }], role: "model" }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 2, totalTokenCount: 4 } })}\r\n\r\n`;
    const run = await runNativeChatStream(new TextEncoder().encode(body), []);
    const ids = parseFrames(run.frames).flatMap((event) => (event.data === "[DONE]" ? [] : [event.data.id]));
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
  });
});
