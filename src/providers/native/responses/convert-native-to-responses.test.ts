import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertNativeResponseToResponses } from "./convert-native-response-to-responses.js";
import { echoResponseSettings } from "../../../http/echo-response-settings.js";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";
import { runNativeResponsesStream } from "../../../../test/support/run-native-responses-stream.js";

const validate = createOpenaiSchemaValidator();
const fixtureUrl = (name: string) => new URL(`../__fixtures__/${name}`, import.meta.url);
const readJson = (name: string) => JSON.parse(readFileSync(fixtureUrl(name), "utf8"));
const readText = (name: string) => readFileSync(fixtureUrl(name), "utf8");
const created = 1_749_721_287;
const settings = echoResponseSettings({ model: "gmx-3.5-flash", input: "hello" });

const answers = [
  { fixture: "generate-text.json", includeThoughts: false },
  { fixture: "generate-thinking.json", includeThoughts: true },
  { fixture: "generate-function-call.json", includeThoughts: false },
  { fixture: "generate-code-execution.json", includeThoughts: false },
  { fixture: "generate-max-tokens.json", includeThoughts: false },
  { fixture: "generate-safety.json", includeThoughts: false },
  { fixture: "generate-blocked-prompt.json", includeThoughts: false },
  { fixture: "generate-cached-usage.json", includeThoughts: false },
];

describe("convertNativeResponseToResponses", () => {
  it.each(answers)("$fixture → the committed Responses object", async ({ fixture, includeThoughts }) => {
    const converted = convertNativeResponseToResponses(readJson(fixture), {
      model: "gmx-3.5-flash",
      includeThoughts,
      created,
      settings,
    });
    expect(validate("ResponseObject", converted.response)).toEqual([]);
    const expected = fixture.replace(
      /\.json$/,
      includeThoughts ? ".include-thoughts.responses.json" : ".responses.json",
    );
    await expect(`${JSON.stringify(converted, null, 2)}\n`).toMatchFileSnapshot(`../__fixtures__/expected/${expected}`);
  });

  it("puts thoughts in a reasoning item before the message, the text's signature in one after it, usage from usageMetadata", () => {
    const { response, usage } = convertNativeResponseToResponses(readJson("generate-thinking.json"), {
      model: "gmx-3.1-pro-preview",
      includeThoughts: true,
      created,
      settings,
    });
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "message", "reasoning"]);
    expect(response.output[2]).toEqual({
      id: expect.stringMatching(/^rs_.+_2$/),
      type: "reasoning",
      summary: [],
      encrypted_content: `native-thought-signature:${readJson("generate-thinking.json").candidates[0].content.parts.at(-1).thoughtSignature}`,
      status: "completed",
    });
    expect(response.status).toBe("completed");
    expect(response.usage?.output_tokens).toBe(usage.completionTokens);
    expect(response.usage?.output_tokens_details?.reasoning_tokens).toBe(usage.reasoningTokens);
    expect(response.usage?.total_tokens).toBe(usage.promptTokens + usage.completionTokens);
  });

  it("gives each function call its own item, the thought signature riding in the first call_id", () => {
    const { response } = convertNativeResponseToResponses(readJson("generate-function-call.json"), {
      model: "gmx-3.5-flash",
      includeThoughts: false,
      created,
      settings,
    });
    const calls = response.output.filter((item) => item.type === "function_call");
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]).toMatchObject({ call_id: expect.stringMatching(/__thought__CqYCAcu98/), status: "completed" });
  });

  it("marks a MAX_TOKENS answer incomplete for max_output_tokens", () => {
    const { response } = convertNativeResponseToResponses(readJson("generate-max-tokens.json"), {
      model: "gmx-3.5-flash",
      includeThoughts: false,
      created,
      settings,
    });
    expect(response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });
});

type Frame = { event: string; data: Record<string, any> };

function parseFrames(frames: string[]): Frame[] {
  return frames.map((frame) => {
    const match = /^event: ([^\n]+)\ndata: ([^\n]*)\n\n$/.exec(frame);
    expect(match, frame).not.toBeNull();
    const data = JSON.parse(match![2]!) as Record<string, any>;
    expect(data.type).toBe(match![1]);
    expect(validate("ResponseStreamEvent", data)).toEqual([]);
    return { event: match![1]!, data };
  });
}

const streams = [
  { fixture: "stream-text.chunks.txt", includeThoughts: false },
  { fixture: "stream-thinking.chunks.txt", includeThoughts: true },
  { fixture: "stream-function-call.chunks.txt", includeThoughts: false },
  { fixture: "stream-image.chunks.txt", includeThoughts: false },
  { fixture: "stream-blocked-prompt.chunks.txt", includeThoughts: false },
  { fixture: "stream-max-tokens.chunks.txt", includeThoughts: false },
  { fixture: "stream-malformed.chunks.txt", includeThoughts: false },
  { fixture: "stream-error-mid-stream.chunks.txt", includeThoughts: false },
  { fixture: "stream-truncated.chunks.txt", includeThoughts: false },
  { fixture: "stream-text-signature.chunks.txt", includeThoughts: true },
  { fixture: "stream-signed-text-and-call.chunks.txt", includeThoughts: false },
];

describe("createNativeEventToResponsesTransform", () => {
  describe.each(streams)("$fixture", ({ fixture, includeThoughts }) => {
    it("emits the committed events, each valid, numbered from 0 in order, usage reported once", async () => {
      const run = runNativeResponsesStream(readText(fixture), { includeThoughts });
      const expected = fixture.replace(
        /\.chunks\.txt$/,
        includeThoughts ? ".include-thoughts.responses.txt" : ".responses.txt",
      );
      await expect(run.frames.join("")).toMatchFileSnapshot(`../__fixtures__/expected/${expected}`);
      const frames = parseFrames(run.frames);
      expect(frames.map((frame) => frame.data.sequence_number)).toEqual(frames.map((_, index) => index));
      expect(run.usageReports).toHaveLength(1);
      const last = frames.at(-1)!;
      expect(["response.completed", "error"]).toContain(last.event);
    });
  });

  it("follows the product document's order for a text answer", () => {
    const frames = parseFrames(runNativeResponsesStream(readText("stream-text.chunks.txt")).frames);
    const types = frames.map((frame) => frame.event);
    const documented = [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.output_item.done",
      "response.completed",
    ];
    expect(
      types.filter((type) => documented.includes(type)).filter((type, index, all) => all[index - 1] !== type),
    ).toEqual(documented);
    expect(frames[0]!.data.response.status).toBe("in_progress");
    const completed = frames.at(-1)!.data.response;
    expect(completed.status).toBe("completed");
    const text = frames
      .filter((frame) => frame.event === "response.output_text.delta")
      .map((frame) => frame.data.delta)
      .join("");
    expect(completed.output[0].content[0].text).toBe(text);
    expect(completed.usage).toMatchObject({ input_tokens: expect.any(Number), total_tokens: expect.any(Number) });
    expect(new Set(frames.map((frame) => frame.data.response?.id).filter(Boolean)).size).toBe(1);
  });

  it("sends function calls whole with their arguments events and the signature in the call_id", () => {
    const frames = parseFrames(runNativeResponsesStream(readText("stream-function-call.chunks.txt")).frames);
    const added = frames.filter(
      (frame) => frame.event === "response.output_item.added" && frame.data.item.type === "function_call",
    );
    expect(added).toHaveLength(2);
    expect(added[0]!.data.item.call_id).toMatch(/__thought__CqYCAcu98/);
    const argumentsDone = frames.filter((frame) => frame.event === "response.function_call_arguments.done");
    expect(argumentsDone.map((frame) => JSON.parse(frame.data.arguments))).toEqual([
      { city: "Paris", unit: "celsius" },
      { timezone: "Europe/Paris" },
    ]);
    const completed = frames.at(-1)!.data.response;
    expect(completed.output.map((item: { type: string }) => item.type)).toEqual([
      "message",
      "function_call",
      "function_call",
    ]);
  });

  it("streams thoughts as summary events, and the text's signature as a reasoning item after its message", () => {
    const run = runNativeResponsesStream(readText("stream-text-signature.chunks.txt"), { includeThoughts: true });
    const frames = parseFrames(run.frames);
    expect(frames.map((frame) => frame.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.output_item.done",
      "response.completed",
    ]);
    const thought = "**Greeting the user**\n\nA short, friendly hello.";
    expect(frames[4]!.data).toMatchObject({ item_id: frames[2]!.data.item.id, summary_index: 0, delta: thought });
    expect(frames[6]!.data.part).toEqual({ type: "summary_text", text: thought });
    const signatureItem = {
      id: "rs_kQ9LaPz3GqWYzwYPsLfT8QE_2",
      type: "reasoning",
      summary: [],
      encrypted_content:
        "native-thought-signature:EjQKMgEMOdbHxZ1r9kq0b3dXbPq8Tg5yH2mVjR1cWm4pZs7LnAq3oE6iUf0tKd8gYw==",
      status: "completed",
    };
    expect(frames[16]!.data).toMatchObject({ output_index: 2, item: signatureItem });
    const completed = frames.at(-1)!.data.response;
    expect(completed.output.map((item: { type: string }) => item.type)).toEqual(["reasoning", "message", "reasoning"]);
    expect(completed.output[2]).toEqual(signatureItem);
  });

  it("gives the same output items as the JSON answer made of the same parts", () => {
    for (const fixture of ["stream-text-signature.chunks.txt", "stream-signed-text-and-call.chunks.txt"]) {
      const fragments = readText(fixture)
        .split("\r\n\r\n")
        .filter((frame) => frame.startsWith("data: "))
        .map((frame) => JSON.parse(frame.slice("data: ".length)));
      const last = fragments.at(-1);
      const whole = {
        ...last,
        candidates: [
          {
            ...last.candidates[0],
            content: { role: "model", parts: fragments.flatMap((fragment) => fragment.candidates[0].content.parts) },
          },
        ],
      };
      const streamed = parseFrames(runNativeResponsesStream(readText(fixture), { includeThoughts: true }).frames);
      const json = convertNativeResponseToResponses(whole, {
        model: "gmx-3.5-flash",
        includeThoughts: true,
        created,
        settings,
      });
      expect(streamed.at(-1)!.data.response.output).toEqual(json.response.output);
    }
  });

  it("numbers the pipe's error frame after the events already sent", () => {
    const run = runNativeResponsesStream(readText("stream-text.chunks.txt"));
    const [frame] = parseFrames([run.errorFrame("The upstream stream ended unexpectedly.")]);
    expect(frame!.data).toMatchObject({ type: "error", sequence_number: run.frames.length, code: "upstream_error" });
  });
});
