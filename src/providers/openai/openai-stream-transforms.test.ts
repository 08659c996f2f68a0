import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { createOpenaiSchemaValidator } from "../../../test/support/create-openai-schema-validator.js";
import { createOpenaiChatStreamTransform } from "./chat/create-openai-chat-stream-transform.js";
import { createOpenaiResponsesStreamTransform } from "./responses/create-openai-responses-stream-transform.js";
import { formatChatStreamErrorFrame } from "../../http/format-chat-stream-error-frame.js";
import { replayUpstreamStream } from "../../../test/support/replay-upstream-stream.js";

const validate = createOpenaiSchemaValidator();
const readFixture = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, index) => index);

interface ChatOptions {
  clientWantsUsage?: boolean;
  thinkingToContent?: boolean;
}

async function replayChat(fixture: string, options: ChatOptions = {}, pieceStarts: readonly number[] = []) {
  const usageReports: MeteredUsage[] = [];
  const texts: string[] = [];
  const frames = await replayUpstreamStream(
    readFixture(fixture),
    pieceStarts,
    createOpenaiChatStreamTransform({
      clientModel: "my-chat-model",
      clientWantsUsage: options.clientWantsUsage ?? true,
      thinkingToContent: options.thinkingToContent ?? false,
      onUsage: (usage) => usageReports.push(usage),
      onText: (text) => texts.push(text),
    }),
    formatChatStreamErrorFrame,
  );
  return { frames, usageReports, texts };
}

/** Checks the framing and every chunk against the spec, then returns the payloads ("[DONE]" as is). */
function parseChatFrames(frames: string[]): any[] {
  return frames.map((frame) => {
    expect(frame).toMatch(/^data: [^\n]*\n\n$/);
    const data = frame.slice("data: ".length, -2);
    if (data === "[DONE]") return data;
    const value = JSON.parse(data);
    expect(validate(value.error ? "ErrorResponse" : "ChatCompletionChunk", value)).toEqual([]);
    return value;
  });
}

const chatCases = [
  { fixture: "chat-text.chunks.txt", expected: "chat-text.txt", options: {} },
  { fixture: "chat-text.chunks.txt", expected: "chat-text.no-usage.txt", options: { clientWantsUsage: false } },
  { fixture: "chat-tool-calls.chunks.txt", expected: "chat-tool-calls.txt", options: {} },
  { fixture: "chat-reasoning.chunks.txt", expected: "chat-reasoning.txt", options: {} },
  {
    fixture: "chat-reasoning.chunks.txt",
    expected: "chat-reasoning.thinking-to-content.txt",
    options: { thinkingToContent: true, clientWantsUsage: false },
  },
  { fixture: "chat-error-mid-stream.chunks.txt", expected: "chat-error-mid-stream.txt", options: {} },
  { fixture: "chat-truncated.chunks.txt", expected: "chat-truncated.txt", options: {} },
  { fixture: "chat-finished-without-done.chunks.txt", expected: "chat-finished-without-done.txt", options: {} },
  { fixture: "chat-malformed.chunks.txt", expected: "chat-malformed.txt", options: {} },
];

describe("the openai chat stream transform through the relay's pipe", () => {
  describe.each(chatCases)("$fixture → $expected", ({ fixture, expected, options }) => {
    it("emits the committed frames, each a valid chunk or error, the client's model name, [DONE] once and last", async () => {
      const run = await replayChat(fixture, options);
      await expect(run.frames.join("")).toMatchFileSnapshot(`./__fixtures__/expected/${expected}`);
      const payloads = parseChatFrames(run.frames);
      expect(payloads.at(-1)).toBe("[DONE]");
      expect(payloads.filter((payload) => payload === "[DONE]")).toHaveLength(1);
      for (const payload of payloads) if (payload.model !== undefined) expect(payload.model).toBe("my-chat-model");
    });

    it("gives the same frames whatever the upstream read boundaries (every byte)", async () => {
      const whole = await replayChat(fixture, options);
      expect((await replayChat(fixture, options, everyByte(readFixture(fixture)))).frames).toEqual(whole.frames);
    });
  });

  it("reports the usage chunk exactly and shows it to a client that asked for it", async () => {
    const run = await replayChat("chat-text.chunks.txt");
    expect(run.usageReports).toEqual([{ promptTokens: 19, completionTokens: 14, cachedTokens: 0, reasoningTokens: 0 }]);
    const payloads = parseChatFrames(run.frames);
    expect(payloads.at(-2).choices).toEqual([]);
    expect(payloads.at(-2).usage.total_tokens).toBe(33);
    expect(run.texts.join("")).toBe("Crème brûlée is a naïve delight — 日本でも人気 🍮!");
  });

  it("reads usage but hides the usage chunk and every usage field from a client that did not ask", async () => {
    const run = await replayChat("chat-text.chunks.txt", { clientWantsUsage: false });
    expect(run.frames.some((frame) => frame.includes('"usage"'))).toBe(false);
    expect(run.usageReports).toEqual([{ promptTokens: 19, completionTokens: 14, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("passes tool-call fragments through in order, so the client rebuilds both calls' arguments", async () => {
    const run = await replayChat("chat-tool-calls.chunks.txt");
    const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
    for (const payload of parseChatFrames(run.frames))
      for (const choice of payload.choices ?? [])
        for (const call of choice.delta.tool_calls ?? []) {
          const entry = calls.get(call.index) ?? { arguments: "" };
          if (call.id) entry.id = call.id;
          if (call.function?.name) entry.name = call.function.name;
          entry.arguments += call.function?.arguments ?? "";
          calls.set(call.index, entry);
        }
    expect([...calls.values()]).toEqual([
      { id: "call_Vq3nR8xKp2LmT7wYb4sDe9Fh", name: "get_weather", arguments: '{"city": "Paris"}' },
      { id: "call_Hk7sW2qZc9XnB3vLm5pRt8Ja", name: "get_time", arguments: '{"timezone": "Europe/Paris"}' },
    ]);
    expect(run.usageReports).toEqual([
      { promptTokens: 82, completionTokens: 51, cachedTokens: 64, reasoningTokens: 0 },
    ]);
  });

  it("keeps reasoning_content as its own field by default, with reasoning tokens in the usage", async () => {
    const run = await replayChat("chat-reasoning.chunks.txt");
    const deltas = parseChatFrames(run.frames).flatMap(
      (payload) => payload.choices?.map((choice: any) => choice.delta) ?? [],
    );
    expect(deltas.map((delta) => delta.reasoning_content ?? "").join("")).toBe(
      "The user asks for 9.11 vs 9.9. 9.9 is larger.",
    );
    expect(deltas.map((delta) => delta.content ?? "").join("")).toBe("9.9 is larger.");
    expect(run.usageReports).toEqual([
      { promptTokens: 17, completionTokens: 96, cachedTokens: 0, reasoningTokens: 88 },
    ]);
    expect(run.texts.join("")).toBe("The user asks for 9.11 vs 9.9. 9.9 is larger.9.9 is larger.");
  });

  it("svc_thinking_to_content: the reasoning goes into content inside <think> tags and leaves its field", async () => {
    const run = await replayChat("chat-reasoning.chunks.txt", { thinkingToContent: true, clientWantsUsage: false });
    const deltas = parseChatFrames(run.frames).flatMap(
      (payload) => payload.choices?.map((choice: any) => choice.delta) ?? [],
    );
    expect(deltas.some((delta) => "reasoning_content" in delta)).toBe(false);
    expect(deltas.map((delta) => delta.content ?? "").join("")).toBe(
      "<think>\nThe user asks for 9.11 vs 9.9. 9.9 is larger.\n</think>\n\n9.9 is larger.",
    );
  });

  it("ends an upstream error object mid-stream with our error frame then [DONE], keeping the text seen for billing", async () => {
    const run = await replayChat("chat-error-mid-stream.chunks.txt");
    const payloads = parseChatFrames(run.frames);
    expect(payloads.slice(-2)).toEqual([
      {
        error: {
          message:
            "The upstream failed mid-stream: The server had an error while processing your request. Sorry about that!",
          type: "upstream_error",
          code: "upstream_error",
        },
      },
      "[DONE]",
    ]);
    expect(run.usageReports).toEqual([]);
    expect(run.texts.join("")).toBe("The first part");
  });

  it("says a stream that stops without a finish reason or [DONE] was cut short", async () => {
    const payloads = parseChatFrames((await replayChat("chat-truncated.chunks.txt")).frames);
    expect(payloads.slice(-2)).toEqual([
      {
        error: {
          message: "The upstream stream ended before the answer was finished.",
          type: "upstream_error",
          code: "upstream_error",
        },
      },
      "[DONE]",
    ]);
  });

  it("accepts a finished stream whose upstream left out [DONE], adding it once", async () => {
    const run = await replayChat("chat-finished-without-done.chunks.txt");
    const payloads = parseChatFrames(run.frames);
    expect(payloads.some((payload) => payload.error)).toBe(false);
    expect(payloads.at(-1)).toBe("[DONE]");
    expect(run.usageReports).toEqual([{ promptTokens: 6, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("turns a chunk that is not JSON into one bad_response frame and relays the rest", async () => {
    const run = await replayChat("chat-malformed.chunks.txt");
    const errors = parseChatFrames(run.frames).filter((payload) => payload.error);
    expect(errors).toEqual([
      {
        error: { message: "The upstream sent a malformed stream chunk.", type: "upstream_error", code: "bad_response" },
      },
    ]);
    expect(run.usageReports).toEqual([{ promptTokens: 5, completionTokens: 3, cachedTokens: 0, reasoningTokens: 0 }]);
  });
});

async function replayResponses(fixture: string, pieceStarts: readonly number[] = [], breakWith?: Error) {
  const usageReports: MeteredUsage[] = [];
  const texts: string[] = [];
  const createdIds: string[] = [];
  const { transformer, errorFrame } = createOpenaiResponsesStreamTransform({
    clientModel: "my-responses-model",
    onUsage: (usage) => usageReports.push(usage),
    onText: (text) => texts.push(text),
    onCreatedId: (id) => createdIds.push(id),
  });
  const frames = await replayUpstreamStream(readFixture(fixture), pieceStarts, transformer, errorFrame, breakWith);
  return { frames, usageReports, texts, createdIds };
}

/** Checks each frame is `event: <type>` + `data` of that type, valid against the spec, numbered 0, 1, 2, … */
function parseResponsesFrames(frames: string[]): any[] {
  const events = frames.map((frame) => {
    const match = /^event: ([^\n]+)\ndata: ([^\n]*)\n\n$/.exec(frame);
    expect(match).not.toBeNull();
    const data = JSON.parse(match![2]!);
    expect(data.type).toBe(match![1]);
    // The spec's event union has no response.incomplete; its response object is checked instead.
    if (data.type === "response.incomplete") expect(validate("ResponseObject", data.response)).toEqual([]);
    else expect(validate("ResponseStreamEvent", data)).toEqual([]);
    return data;
  });
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  return events;
}

const responsesCases = [
  "responses-text",
  "responses-function-call",
  "responses-incomplete",
  "responses-failed",
  "responses-error",
  "responses-truncated",
];

describe("the openai Responses stream transform through the relay's pipe", () => {
  describe.each(responsesCases)("%s", (name) => {
    it("emits the committed events, each valid and numbered, with the client's model name", async () => {
      const run = await replayResponses(`${name}.chunks.txt`);
      await expect(run.frames.join("")).toMatchFileSnapshot(`./__fixtures__/expected/${name}.txt`);
      for (const event of parseResponsesFrames(run.frames))
        if (event.response) expect(event.response.model).toBe("my-responses-model");
    });

    it("gives the same events whatever the upstream read boundaries (every byte)", async () => {
      const bytes = readFixture(`${name}.chunks.txt`);
      expect((await replayResponses(`${name}.chunks.txt`, everyByte(bytes))).frames).toEqual(
        (await replayResponses(`${name}.chunks.txt`)).frames,
      );
    });
  });

  it("reads the usage of response.completed exactly and counts the text deltas", async () => {
    const run = await replayResponses("responses-text.chunks.txt");
    expect(run.usageReports).toEqual([
      { promptTokens: 24, completionTokens: 11, cachedTokens: 16, reasoningTokens: 0 },
    ]);
    expect(run.texts.join("")).toBe("Crème brûlée — 日本でも人気 🍮");
  });

  it("notes the response's id and each output item's id as the events announce them", async () => {
    for (const name of ["responses-text", "responses-function-call"]) {
      const run = await replayResponses(`${name}.chunks.txt`);
      const events = parseResponsesFrames(run.frames);
      const completed = events.find((event) => event.type === "response.completed");
      expect(run.createdIds).toEqual([
        completed.response.id,
        ...completed.response.output.map((item: { id: string }) => item.id),
      ]);
    }
  });

  it("relays a function call's argument deltas in order and its usage", async () => {
    const run = await replayResponses("responses-function-call.chunks.txt");
    const events = parseResponsesFrames(run.frames);
    const argumentDeltas = events.filter((event) => event.type === "response.function_call_arguments.delta");
    expect(argumentDeltas.map((event) => event.delta).join("")).toBe('{"city":"Paris"}');
    expect(events.at(-1).response.output[0]).toMatchObject({ type: "function_call", name: "get_weather" });
    expect(run.usageReports).toEqual([{ promptTokens: 61, completionTokens: 17, cachedTokens: 0, reasoningTokens: 0 }]);
    expect(run.texts).toEqual([]);
  });

  it("bills the usage of response.incomplete (max_output_tokens reached): those tokens were produced", async () => {
    const run = await replayResponses("responses-incomplete.chunks.txt");
    expect(run.usageReports).toEqual([
      { promptTokens: 12, completionTokens: 16, cachedTokens: 0, reasoningTokens: 12 },
    ]);
    expect(parseResponsesFrames(run.frames).at(-1).response.incomplete_details).toEqual({
      reason: "max_output_tokens",
    });
  });

  it("relays response.failed as the last event, with no usage to report and the text seen kept", async () => {
    const run = await replayResponses("responses-failed.chunks.txt");
    const last = parseResponsesFrames(run.frames).at(-1);
    expect(last.type).toBe("response.failed");
    expect(last.response.error).toEqual({ code: "server_error", message: "The model failed to generate a response." });
    expect(run.usageReports).toEqual([]);
    expect(run.texts).toEqual(["Partial"]);
  });

  it("relays an upstream error event as the last event", async () => {
    const run = await replayResponses("responses-error.chunks.txt");
    const events = parseResponsesFrames(run.frames);
    expect(events.at(-1)).toMatchObject({ type: "error", code: "rate_limit_exceeded", sequence_number: 2 });
    expect(run.usageReports).toEqual([]);
  });

  it("ends a stream cut before any final event with a numbered error event", async () => {
    const run = await replayResponses("responses-truncated.chunks.txt");
    const events = parseResponsesFrames(run.frames);
    expect(events.at(-1)).toEqual({
      type: "error",
      sequence_number: 6,
      message: "The upstream stream ended before the answer was finished.",
      code: "upstream_error",
    });
    expect(run.texts.join("")).toBe("This answer stops");
  });

  it("ends a stream whose upstream connection breaks with an error event that continues the numbering", async () => {
    const run = await replayResponses("responses-truncated.chunks.txt", [], new Error("socket hang up"));
    const events = parseResponsesFrames(run.frames);
    expect(events.at(-1)).toMatchObject({ type: "error", sequence_number: 6, code: "bad_response" });
    expect(events.filter((event) => event.type === "error")).toHaveLength(1);
  });
});
