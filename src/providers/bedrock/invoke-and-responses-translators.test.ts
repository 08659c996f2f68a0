import { readFileSync } from "node:fs";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { describe, expect, it } from "vitest";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { createCollectingController } from "../../upstream/create-collecting-controller.js";
import { createAnthropicMessagesStreamTransform } from "../anthropic-wire/create-anthropic-messages-stream-transform.js";
import { echoResponseSettings } from "../../http/echo-response-settings.js";
import {
  convertEmbeddingRequestToBedrock,
  readBedrockEmbeddingAnswer,
} from "./embeddings/convert-embedding-request-to-bedrock.js";
import { convertMessagesRequestToBedrock } from "./messages/convert-messages-request-to-bedrock.js";
import { createInvokeStreamToAnthropicEvents } from "./messages/invoke-stream-to-anthropic-events.js";
import { ConverseStreamToResponses } from "./responses/converse-stream-to-responses.js";
import { convertResponsesRequestToConverse } from "./responses/convert-responses-request-to-converse.js";
import { EventStreamFrameSplitter } from "./split-event-stream-frames.js";

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** The recorded Converse stream's events, decoded as the pipe decodes them. */
function recordedConverseEvents(): Array<{ type: string; payload: Record<string, unknown> }> {
  const splitter = new EventStreamFrameSplitter();
  const bytes = readFileSync(new URL("./__fixtures__/converse-tool-use.eventstream", import.meta.url));
  return splitter.push(bytes).map((frame) => {
    const message = codec.decode(frame);
    return {
      type: String(message.headers[":event-type"]?.value),
      payload: JSON.parse(new TextDecoder().decode(message.body)),
    };
  });
}

describe("Messages → InvokeModel", () => {
  it("takes out model and stream, puts anthropic_version in and the beta header as anthropic_beta", () => {
    expect(
      convertMessagesRequestToBedrock(
        {
          model: "claude",
          max_tokens: 10,
          stream: true,
          messages: [{ role: "user", content: "hi" }],
          metadata: { user_id: "u1" },
        },
        { "anthropic-version": "2023-06-01", "anthropic-beta": "a-1, b-2" },
      ),
    ).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
      metadata: { user_id: "u1" },
      anthropic_beta: ["a-1", "b-2"],
    });
  });

  it("decodes base64 chunk events into Claude's SSE events without Bedrock's metrics", () => {
    const usage: MeteredUsage[] = [];
    const transformer = createInvokeStreamToAnthropicEvents(
      createAnthropicMessagesStreamTransform({
        clientModel: "my-claude",
        requestId: "req_1",
        onUsage: (value) => usage.push(value),
        onText: () => undefined,
      }),
    );
    const frames = createCollectingController<string>();
    const chunk = (event: object) => ({
      type: "chunk",
      payload: { bytes: Buffer.from(JSON.stringify(event)).toString("base64") },
    });
    for (const event of [
      { type: "message_start", message: { model: "anthropic.claude", usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
      { type: "message_stop", "amazon-bedrock-invocationMetrics": { inputTokenCount: 5, outputTokenCount: 2 } },
    ])
      transformer.transform(chunk(event), frames.controller);
    transformer.flush?.(frames.controller);
    const out = frames.take();
    expect(out[0]).toBe(
      `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { model: "my-claude", usage: { input_tokens: 5, output_tokens: 1 } } })}\n\n`,
    );
    expect(out.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    expect(usage.at(-1)).toMatchObject({ promptTokens: 5, completionTokens: 2 });

    transformer.transform({ type: "chunk", payload: { bytes: "bm90IGpzb24=" } }, frames.controller);
    expect(() => frames.throwIfFailed()).toThrow();
  });
});

describe("embeddings → InvokeModel", () => {
  const request = (input: string | string[], extra: Record<string, unknown> = {}) => ({
    model: "e",
    input,
    ...extra,
  });

  it("builds one Titan body per text and Cohere bodies of at most 96 texts", () => {
    expect(
      convertEmbeddingRequestToBedrock(request(["a", "b"], { dimensions: 512 }), "amazon.titan-embed-text-v2:0"),
    ).toEqual({
      family: "titan-v2",
      bodies: [
        { inputText: "a", dimensions: 512, normalize: true },
        { inputText: "b", dimensions: 512, normalize: true },
      ],
    });
    expect(convertEmbeddingRequestToBedrock(request("a"), "amazon.titan-embed-text-v1").bodies).toEqual([
      { inputText: "a" },
    ]);
    const texts = Array.from({ length: 100 }, (_, index) => `t${index}`);
    const cohere = convertEmbeddingRequestToBedrock(request(texts), "us.cohere.embed-english-v3");
    expect(cohere.bodies).toEqual([
      { texts: texts.slice(0, 96), input_type: "search_document" },
      { texts: texts.slice(96), input_type: "search_document" },
    ]);
  });

  it("refuses what a family cannot honour, and an answer whose vectors do not match the inputs", () => {
    for (const [input, model, extra] of [
      ["a", "amazon.titan-embed-text-v2:0", { dimensions: 300 }],
      ["a", "cohere.embed-english-v3", { dimensions: 256 }],
      ["a", "amazon.nova-pro-v1:0", {}],
      [["a", ""], "amazon.titan-embed-text-v2:0", {}],
    ] as const)
      expect(() => convertEmbeddingRequestToBedrock(request(input as never, extra), model)).toThrow(
        InvalidRequestError,
      );
    expect(readBedrockEmbeddingAnswer("cohere", { embeddings: [[1, 2]] }, 2)).toBeUndefined();
    expect(readBedrockEmbeddingAnswer("cohere", { embeddings: { float: [[1], [2]] } }, 2)).toEqual({
      vectors: [[1], [2]],
      tokens: undefined,
    });
    expect(readBedrockEmbeddingAnswer("titan-v2", { embedding: [0.5], inputTextTokenCount: 3 }, 1)).toEqual({
      vectors: [[0.5]],
      tokens: 3,
    });
  });
});

describe("Responses ↔ Converse", () => {
  it("restates a Responses request as Converse and refuses what it cannot carry", () => {
    expect(
      convertResponsesRequestToConverse(
        {
          model: "m",
          instructions: "rules",
          input: [{ role: "user", content: "hi" }],
          max_output_tokens: 20,
          tools: [{ type: "function", name: "f", parameters: { type: "object" }, strict: false }],
          tool_choice: { type: "function", name: "f" },
        },
        "amazon.nova-pro-v1:0",
      ),
    ).toEqual({
      system: [{ text: "rules" }],
      messages: [{ role: "user", content: [{ text: "hi" }] }],
      inferenceConfig: { maxTokens: 20 },
      toolConfig: {
        tools: [{ toolSpec: { name: "f", inputSchema: { json: { type: "object" } } } }],
        toolChoice: { tool: { name: "f" } },
      },
    });
    for (const refused of [
      { model: "m", input: "x", previous_response_id: "resp_1" },
      { model: "m", input: [{ type: "item_reference", id: "msg_1" }] },
      { model: "m", input: "x", text: { format: { type: "json_object" } } },
      { model: "m", input: "x", tools: [{ type: "web_search" }] },
    ])
      expect(() => convertResponsesRequestToConverse(refused as never, "amazon.nova-pro-v1:0")).toThrow(
        InvalidRequestError,
      );
  });

  it("turns the recorded Converse stream into the Responses event sequence, usage with the last event", () => {
    const usage: MeteredUsage[] = [];
    const transformer = new ConverseStreamToResponses({
      model: "claude",
      created: 1,
      settings: echoResponseSettings({ model: "claude", input: "x" }),
      now: () => 2,
      onUsage: (value) => usage.push(value),
      onText: () => undefined,
    });
    const frames = createCollectingController<string>();
    for (const event of recordedConverseEvents()) transformer.transform(event, frames.controller);
    transformer.flush(frames.controller);
    const events = frames.take().map((frame) => JSON.parse(frame.split("\ndata: ")[1]!));
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
    expect(events.at(-1).response).toMatchObject({
      status: "completed",
      completed_at: 2,
      output: [{ type: "function_call", call_id: "tooluse_fake000001", arguments: '{"city":"weather in Paris"}' }],
      usage: { input_tokens: 6, output_tokens: 8, total_tokens: 14 },
    });
    expect(usage).toEqual([{ promptTokens: 6, completionTokens: 8, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("ends a stream cut before messageStop with an error event continuing the sequence", () => {
    const transformer = new ConverseStreamToResponses({
      model: "claude",
      created: 1,
      settings: echoResponseSettings({ model: "claude", input: "x" }),
      now: () => 2,
      onUsage: () => undefined,
      onText: () => undefined,
    });
    const frames = createCollectingController<string>();
    transformer.transform({ type: "messageStart", payload: { role: "assistant" } }, frames.controller);
    transformer.transform(
      { type: "contentBlockDelta", payload: { contentBlockIndex: 0, delta: { text: "Hi" } } },
      frames.controller,
    );
    transformer.flush(frames.controller);
    const last = JSON.parse(frames.take().at(-1)!.split("\ndata: ")[1]!);
    expect(last).toEqual({
      type: "error",
      sequence_number: 5,
      code: "upstream_error",
      message: "The upstream stream ended before the answer was finished.",
      param: null,
    });
  });
});
