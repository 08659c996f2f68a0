import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import { loadBundledSpec } from "../../../http/load-bundled-spec.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { formatAnthropicErrorEvent } from "../../anthropic-wire/format-anthropic-error-event.js";
import type { CreateMessageRequest } from "../../contract/messages-call.js";
import { replayUpstreamStream } from "../../../../test/support/replay-upstream-stream.js";
import { convertMessagesRequestToNative } from "./convert-messages-request-to-native.js";
import { convertNativeResponseToMessage } from "./convert-native-response-to-message.js";
import { createNativeToMessagesStreamTransform } from "./create-native-to-messages-stream-transform.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(loadBundledSpec("anthropic"), "anthropic.json");
const validStreamEvent = ajv.getSchema("anthropic.json#/components/schemas/MessageStreamEvent")!;
const validMessage = ajv.getSchema("anthropic.json#/components/schemas/Message")!;

const fixtures = fileURLToPath(new URL("../__fixtures__/", import.meta.url));
const readBytes = (name: string) => new Uint8Array(readFileSync(`${fixtures}${name}`));
const readJson = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;
const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, index) => index);

const fakeFetchMedia: FetchMedia = async (url) => {
  if (url === "https://media.example.com/cat.jpg") return { mimeType: "image/jpeg", data: Buffer.from("fake jpeg") };
  throw new Error(`unexpected download of ${url}`);
};

/**
 * Fixture pairs in __fixtures__/messages-to-native, as chat-to-native: `<group>.request.json` names Messages
 * requests, `<group>.expected.json` the exact translation. vitest -u rewrites the expected files after an intended change; review the diff like code.
 */
const requestDirectory = `${fixtures}messages-to-native/`;
const groups = readdirSync(requestDirectory)
  .filter((name) => name.endsWith(".request.json"))
  .map((name) => name.slice(0, -".request.json".length))
  .sort();

const translate = (request: CreateMessageRequest) =>
  convertMessagesRequestToNative({
    request,
    model: request.model,
    safetySettings: undefined,
    fetchMedia: fakeFetchMedia,
  });

describe.each(groups)("Messages → native fixtures: %s", (group) => {
  const requests = readJson<Record<string, CreateMessageRequest>>(`${requestDirectory}${group}.request.json`);
  const expectedPath = `${requestDirectory}${group}.expected.json`;
  it("converts every case as the expected file records", async () => {
    const results: Record<string, unknown> = {};
    for (const [name, request] of Object.entries(requests)) results[name] = await translate(request);
    await expect(`${JSON.stringify(results, null, 2)}\n`).toMatchFileSnapshot(expectedPath);
  });
});

describe("a Messages request on a native channel", () => {
  it("gives the thinking budget exactly and asks for the thoughts", async () => {
    const { body, includeThoughts } = await translate({
      model: "gmx-2.5-flash",
      max_tokens: 8000,
      thinking: { type: "enabled", budget_tokens: 3000 },
      messages: [{ role: "user", content: "x" }],
    });
    expect(body.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 3000, includeThoughts: true });
    expect(body.generationConfig?.maxOutputTokens).toBe(8000);
    expect(includeThoughts).toBe(true);
  });

  it("puts the thought signature a tool_use id carries back on its functionCall part", async () => {
    const requests = readJson<Record<string, CreateMessageRequest>>(`${requestDirectory}tools.request.json`);
    const { body } = await translate(requests["signed-tool-loop"]!);
    const modelTurn = body.contents.find((content) => content.role === "model")!;
    expect(modelTurn.parts).toContainEqual(
      expect.objectContaining({
        functionCall: expect.objectContaining({ name: "get_weather", args: { city: "Paris" } }),
        thoughtSignature: "c2lnbmVkLWNhbGw=",
      }),
    );
  });
});

const answerCases = [
  "generate-text.json",
  "generate-thinking.json",
  "generate-function-call.json",
  "generate-max-tokens.json",
  "generate-cached-usage.json",
  "generate-safety.json",
] as const;

describe("a native answer → Anthropic's message (recorded upstream fixtures)", () => {
  it.each(answerCases)("%s", async (fixture) => {
    const answer = readJson<GenerateContentResponse>(`${fixtures}${fixture}`);
    const { message, usage } = convertNativeResponseToMessage(answer, {
      model: "gmx-on-messages",
      includeThoughts: true,
      created: 1_749_721_287,
    });
    expect(validMessage(message), JSON.stringify(validMessage.errors)).toBe(true);
    await expect(`${JSON.stringify({ message, usage }, null, 2)}\n`).toMatchFileSnapshot(
      `../__fixtures__/expected/${fixture.replace(/\.json$/, ".messages.json")}`,
    );
  });
});

async function replay(fixture: string, pieceStarts: readonly number[] = []) {
  const usage: unknown[] = [];
  const texts: string[] = [];
  const frames = await replayUpstreamStream(
    readBytes(fixture),
    pieceStarts,
    createNativeToMessagesStreamTransform({
      clientModel: "gmx-on-messages",
      requestId: "req_fixture",
      includeThoughts: true,
      promptTokenEstimate: 42,
      created: 1_749_721_287,
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
  return { frames, events, usage, texts };
}

const streamCases = [
  "stream-text",
  "stream-thinking",
  "stream-function-call",
  "stream-signed-text-and-call",
  "stream-max-tokens",
  "stream-blocked-prompt",
  "stream-error-mid-stream",
  "stream-truncated",
  "stream-malformed",
] as const;

describe("native stream events → Anthropic's stream events (recorded upstream fixtures)", () => {
  describe.each(streamCases)("%s", (name) => {
    it("emits the committed events, each valid, the same whatever the read boundaries, usage reported once", async () => {
      const fixture = `${name}.chunks.txt`;
      const run = await replay(fixture);
      await expect(run.frames.join("")).toMatchFileSnapshot(`../__fixtures__/expected/${name}.messages.txt`);
      expect(run.usage).toHaveLength(1);
      const split = await replay(fixture, everyByte(readBytes(fixture)));
      expect(split.frames).toEqual(run.frames);
      expect(split.usage).toEqual(run.usage);
    });
  });

  it("follows Anthropic's order: message_start with the estimate, blocks, message_delta with exact counts, message_stop", async () => {
    const run = await replay("stream-function-call.chunks.txt");
    const types = run.events.map((event) => event.type);
    expect(types[0]).toBe("message_start");
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(run.events[0].message.usage).toEqual({ input_tokens: 42, output_tokens: 0 });
    expect(run.events.at(-2).delta.stop_reason).toBe("tool_use");
    const toolUse = run.events.find((event) => event.content_block?.type === "tool_use");
    // The functionCall's thought signature rides in the id, which the client echoes on the next turn.
    expect(toolUse.content_block.id).toContain("__thought__");
  });

  it("ends a stream cut short or broken upstream with an error event and no message_stop", async () => {
    for (const name of ["stream-error-mid-stream", "stream-truncated", "stream-malformed"]) {
      const run = await replay(`${name}.chunks.txt`);
      expect(run.events.at(-1).type, name).toBe("error");
      expect(run.events.some((event) => event.type === "message_stop")).toBe(false);
    }
  });
});
