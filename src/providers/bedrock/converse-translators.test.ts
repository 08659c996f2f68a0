import { readFileSync } from "node:fs";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { describe, expect, it } from "vitest";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { ConverseStreamToChat } from "./converse-stream-to-chat.js";
import { convertChatRequestToConverse } from "./convert-chat-request-to-converse.js";
import { convertConverseResponseToChat } from "./convert-converse-response-to-chat.js";
import { readBedrockCredentials } from "./read-bedrock-credentials.js";
import { EventStreamFrameSplitter } from "./split-event-stream-frames.js";

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const readFixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

/** Feeds recorded bytes one byte at a time (the worst split) and returns the frames' events, or where it broke. */
function replay(bytes: Buffer): { events: Array<[string, Record<string, unknown>]>; broken?: string } {
  const splitter = new EventStreamFrameSplitter();
  const events: Array<[string, Record<string, unknown>]> = [];
  try {
    for (const byte of bytes) {
      for (const frame of splitter.push(Uint8Array.of(byte))) {
        const message = codec.decode(frame);
        events.push([
          String(message.headers[":event-type"]?.value),
          JSON.parse(new TextDecoder().decode(message.body)),
        ]);
      }
    }
    splitter.end();
  } catch (error) {
    return { events, broken: (error as Error).message };
  }
  return { events };
}

describe("chat → Converse", () => {
  it("builds the Converse body exactly: system, alternating turns, inference settings, tools, thinking budget", () => {
    expect(
      convertChatRequestToConverse(
        {
          model: "claude",
          messages: [
            { role: "system", content: "rules" },
            { role: "user", content: "first" },
            { role: "user", content: [{ type: "text", text: "second" }] },
          ],
          max_completion_tokens: 300,
          top_p: 0.9,
          stop: "END",
          tools: [{ type: "function", function: { name: "f", description: "does f" } }],
          tool_choice: "required",
          reasoning_effort: "medium",
        },
        "anthropic.claude-sonnet-4-5-v1:0",
      ),
    ).toEqual({
      system: [{ text: "rules" }],
      messages: [{ role: "user", content: [{ text: "first" }, { text: "second" }] }],
      inferenceConfig: { maxTokens: 300, topP: 0.9, stopSequences: ["END"] },
      toolConfig: {
        tools: [
          { toolSpec: { name: "f", description: "does f", inputSchema: { json: { type: "object", properties: {} } } } },
        ],
        toolChoice: { any: {} },
      },
      additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 8192 } },
    });
  });

  it("sends no thinking budget to models that do not think that way, and refuses remote images", () => {
    const nova = convertChatRequestToConverse(
      { model: "n", messages: [{ role: "user", content: "hi" }], reasoning_effort: "high" },
      "amazon.nova-pro-v1:0",
    );
    expect(nova.additionalModelRequestFields).toBeUndefined();
    expect(() =>
      convertChatRequestToConverse(
        {
          model: "n",
          messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x.example/a.png" } }] }],
        },
        "amazon.nova-pro-v1:0",
      ),
    ).toThrow(InvalidRequestError);
  });
});

describe("Converse → chat", () => {
  it("converts an answer with text, a tool use and cache usage", () => {
    const { completion, usage } = convertConverseResponseToChat(
      {
        output: {
          message: {
            role: "assistant",
            content: [{ text: "Let me check." }, { toolUse: { toolUseId: "tu1", name: "f", input: { a: 1 } } }],
          },
        },
        stopReason: "tool_use",
        usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 3, cacheWriteInputTokens: 2 },
      },
      { id: "chatcmpl-1", model: "claude", created: 1 },
    );
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: "Let me check.",
        tool_calls: [{ id: "tu1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      },
      finish_reason: "tool_calls",
    });
    expect(completion.usage).toEqual({
      prompt_tokens: 15,
      completion_tokens: 5,
      total_tokens: 20,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    expect(usage).toEqual({
      promptTokens: 15,
      completionTokens: 5,
      cachedTokens: 3,
      cacheWriteTokens: 2,
      reasoningTokens: 0,
    });
  });

  it("replays a recorded binary event stream byte by byte into chat chunks", () => {
    const { events, broken } = replay(readFixture("converse-tool-use.eventstream"));
    expect(broken).toBeUndefined();
    const usage: MeteredUsage[] = [];
    const translator = new ConverseStreamToChat({
      id: "chatcmpl-2",
      model: "claude",
      created: 1,
      clientWantsUsage: true,
      onUsage: (reported) => usage.push(reported),
      onText: () => {},
    });
    const chunks = events
      .flatMap(([type, payload]) => translator.accept(type, payload))
      .map((text) => JSON.parse(text));
    expect(translator.finished).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? chunk.usage)).toEqual([
      { role: "assistant", content: "" },
      {
        tool_calls: [
          { index: 0, id: "tooluse_fake000001", type: "function", function: { name: "get_weather", arguments: "" } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":"weat' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'her in Paris"}' } }] },
      {},
      { prompt_tokens: 6, completion_tokens: 8, total_tokens: 14 },
    ]);
    expect(chunks[4].choices[0].finish_reason).toBe("tool_calls");
    expect(usage).toEqual([{ promptTokens: 6, completionTokens: 8, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("stops at a frame whose CRC is wrong, keeping the frames before it", () => {
    const { events, broken } = replay(readFixture("converse-bad-crc.eventstream"));
    expect(events.map(([type]) => type)).toEqual(["messageStart", "contentBlockDelta", "contentBlockDelta"]);
    expect(broken).toMatch(/checksum/i);
  });

  it("tells AWS credentials from a Bedrock API key", () => {
    expect(readBedrockCredentials("AKIAABCDEFGHIJKLMNOP:secret")).toEqual({
      kind: "aws",
      accessKeyId: "AKIAABCDEFGHIJKLMNOP",
      secretAccessKey: "secret",
      sessionToken: undefined,
    });
    expect(readBedrockCredentials("ASIAABCDEFGHIJKLMNOP:secret:token").kind).toBe("aws");
    expect(readBedrockCredentials("ABSKQmVkcm9jaw==")).toEqual({ kind: "api-key", apiKey: "ABSKQmVkcm9jaw==" });
  });
});
