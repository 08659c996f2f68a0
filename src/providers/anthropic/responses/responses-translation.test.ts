import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { echoResponseSettings } from "../../../http/echo-response-settings.js";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";
import { replayUpstreamStream } from "../../../../test/support/replay-upstream-stream.js";
import { decodeClaudeThinking } from "./claude-thinking-carrier.js";
import { ClaudeToResponsesStreamTransform } from "./claude-to-responses-stream-transform.js";
import { type ClaudeMessage, convertMessageToResponse } from "./convert-message-to-response.js";
import { convertResponsesRequestToMessages } from "./convert-responses-request-to-messages.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];

const validate = createOpenaiSchemaValidator();
const fixtures = fileURLToPath(new URL("../__fixtures__/", import.meta.url));
const readBytes = (name: string) => new Uint8Array(readFileSync(`${fixtures}${name}`));
const readJson = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;
const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length }, (_, index) => index);
const settings = echoResponseSettings({ model: "my-claude", input: "x" } as ResponsesRequest);

/**
 * Fixture pairs in __fixtures__/responses-to-claude: `<group>.request.json` names Responses requests,
 * `<group>.expected.json` the exact Messages body. vitest -u rewrites the expected files after an intended change; review the diff like code.
 */
const requestDirectory = `${fixtures}responses-to-claude/`;
const groups = readdirSync(requestDirectory)
  .filter((name) => name.endsWith(".request.json"))
  .map((name) => name.slice(0, -".request.json".length))
  .sort();

describe.each(groups)("Responses → Claude fixtures: %s", (group) => {
  const requests = readJson<Record<string, ResponsesRequest>>(`${requestDirectory}${group}.request.json`);
  const expectedPath = `${requestDirectory}${group}.expected.json`;
  it("converts every case as the expected file records", async () => {
    const results: Record<string, unknown> = {};
    for (const [name, request] of Object.entries(requests))
      results[name] = convertResponsesRequestToMessages(request, "upstream-claude");
    await expect(`${JSON.stringify(results, null, 2)}\n`).toMatchFileSnapshot(expectedPath);
  });
});

describe("a Responses request Claude cannot take", () => {
  const refusals: Array<[string, Partial<ResponsesRequest>, string]> = [
    ["a continuation by id", { previous_response_id: "resp_1" }, "previous_response_id"],
    [
      "an input of instructions only",
      { input: [{ role: "developer", content: "Be brief." }] as ResponsesRequest["input"] },
      "input",
    ],
    [
      "an item reference",
      { input: [{ type: "item_reference", id: "msg_1" }] as ResponsesRequest["input"] },
      "input[0].type",
    ],
    ["another tool kind", { tools: [{ type: "web_search" }] as ResponsesRequest["tools"] }, "tools[0].type"],
    [
      "a structured output format while thinking",
      { text: { format: { type: "json_object" } }, reasoning: { effort: "low" } } as Partial<ResponsesRequest>,
      "text.format",
    ],
    [
      "an effort it cannot budget",
      { reasoning: { effort: "xhigh" } as ResponsesRequest["reasoning"] },
      "reasoning.effort",
    ],
    [
      "an image by file id",
      { input: [{ role: "user", content: [{ type: "input_image", file_id: "file_1" }] }] as ResponsesRequest["input"] },
      "input[0].content[0]",
    ],
  ];
  it.each(refusals)("refuses %s with a 400 naming the field", (_what, fields, param) => {
    let caught: unknown;
    try {
      convertResponsesRequestToMessages({ model: "claude-a", input: "x", ...fields } as ResponsesRequest, "up");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    expect((caught as InvalidRequestError).status).toBe(400);
    expect((caught as InvalidRequestError).options).toMatchObject({ param });
  });
});

describe("a Claude answer → a Responses object (recorded upstream fixtures)", () => {
  it.each(["claude-thinking-tool.json", "claude-cached-redacted.json", "claude-max-tokens.json"])(
    "%s",
    async (fixture) => {
      const message = readJson<ClaudeMessage>(`${fixtures}${fixture}`);
      const converted = convertMessageToResponse(message, {
        model: "my-claude",
        created: 1767312000,
        completedAt: 1767312001,
        settings,
      });
      expect(validate("ResponseObject", converted.response)).toEqual([]);
      await expect(`${JSON.stringify(converted, null, 2)}\n`).toMatchFileSnapshot(
        `../__fixtures__/expected/${fixture.replace(/\.json$/, ".responses.json")}`,
      );
    },
  );

  it("carries the thinking block whole in encrypted_content, so the next turn gives it back to Claude as it was", () => {
    const message = readJson<ClaudeMessage>(`${fixtures}claude-thinking-tool.json`);
    const { response } = convertMessageToResponse(message, { model: "m", created: 0, completedAt: 0, settings });
    const reasoning = response.output[0] as components["schemas"]["ResponseOutputReasoning"];
    expect(decodeClaudeThinking(reasoning.encrypted_content)).toEqual(message.content![0]);
    const body = convertResponsesRequestToMessages(
      {
        model: "m",
        reasoning: { effort: "low" },
        input: [
          { role: "user", content: "Paris" },
          ...(response.output as ResponsesRequest["input"] & unknown[]),
          { type: "function_call_output", call_id: "toolu_fake000001", output: "18 degrees" },
        ],
      } as ResponsesRequest,
      "up",
    );
    expect((body.messages as Array<{ content: unknown[] }>)[1]!.content).toEqual(message.content);
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
  });

  it("reports the whole prompt as input tokens, cache reads as cached tokens, and bills cache writes apart", () => {
    const cached = convertMessageToResponse(readJson<ClaudeMessage>(`${fixtures}claude-cached-redacted.json`), {
      model: "m",
      created: 0,
      completedAt: 0,
      settings,
    });
    expect(cached.response.usage).toMatchObject({ input_tokens: 1207, input_tokens_details: { cached_tokens: 1200 } });
    const written = convertMessageToResponse(readJson<ClaudeMessage>(`${fixtures}claude-max-tokens.json`), {
      model: "m",
      created: 0,
      completedAt: 0,
      settings,
    });
    expect(written.response).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    expect(written.usage).toMatchObject({ promptTokens: 46, cacheWriteTokens: 40, cachedTokens: 0 });
  });
});

async function replay(fixture: string, pieceStarts: readonly number[] = []) {
  const usage: MeteredUsage[] = [];
  const transformer = new ClaudeToResponsesStreamTransform({
    model: "my-claude",
    created: 1767312000,
    settings,
    now: () => 1767312001,
    onUsage: (value) => usage.push(value),
    onText: () => undefined,
  });
  const frames = await replayUpstreamStream(readBytes(fixture), pieceStarts, transformer, (message) =>
    transformer.errorFrame(message),
  );
  const events = frames.map((frame, index) => {
    const match = /^event: (\S+)\ndata: (.*)\n\n$/s.exec(frame);
    expect(match, frame).not.toBeNull();
    const data = JSON.parse(match![2]!);
    expect(data.type).toBe(match![1]);
    expect(data.sequence_number).toBe(index);
    expect(validate("ResponseStreamEvent", data)).toEqual([]);
    return data;
  });
  return { frames, events, usage };
}

const streamFixtures = ["claude-text", "claude-thinking-tool", "claude-error-mid-stream", "claude-truncated"];

describe("Claude's stream events → the Responses event sequence (recorded upstream fixtures)", () => {
  describe.each(streamFixtures)("%s", (name) => {
    it("emits the committed events, each valid and numbered, the same whatever the read boundaries", async () => {
      const fixture = `${name}.chunks.txt`;
      const run = await replay(fixture);
      await expect(run.frames.join("")).toMatchFileSnapshot(`../__fixtures__/expected/${name}.responses.txt`);
      expect((await replay(fixture, everyByte(readBytes(fixture)))).frames).toEqual(run.frames);
    });
  });

  it("streams reasoning, a message and a function call in Claude's order, the signature in the reasoning item", async () => {
    const run = await replay("claude-thinking-tool.chunks.txt");
    const completed = run.events.at(-1);
    expect(completed.type).toBe("response.completed");
    expect(completed.response.output.map((item: { type: string }) => item.type)).toEqual([
      "reasoning",
      "message",
      "function_call",
    ]);
    expect(decodeClaudeThinking(completed.response.output[0].encrypted_content)).toEqual({
      type: "thinking",
      thinking: "Thinking about: Paris",
      signature: "EqSig_gIMZxzaJtavN1OGnxHUTIPO8rV2N5tqZXa3vCWyto+A=",
    });
    expect(completed.response.output[2]).toMatchObject({
      call_id: "toolu_fake000001",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    });
    expect(completed.response.usage).toMatchObject({ input_tokens: 6, output_tokens: 6 });
    expect(run.usage.at(-1)).toMatchObject({ promptTokens: 6, completionTokens: 6 });
  });

  it("ends a stream broken or cut short upstream with one error event and no response.completed", async () => {
    for (const name of ["claude-error-mid-stream", "claude-truncated"]) {
      const run = await replay(`${name}.chunks.txt`);
      expect(run.events.at(-1).type, name).toBe("error");
      expect(run.events.some((event) => event.type === "response.completed")).toBe(false);
    }
  });
});
