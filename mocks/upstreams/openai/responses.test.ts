import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { parseSseTranscript } from "../shared/parse-sse-transcript.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer({ now: () => 1_700_000_000_000 });
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

async function respond(body: unknown) {
  const response = await fetch(`${upstream.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe("POST /v1/responses", () => {
  it("returns a completed response with exact usage", async () => {
    const { status, text } = await respond({
      model: "gpt-4o-mini",
      instructions: "Be brief.",
      input: [{ role: "user", content: [{ type: "input_text", text: "hello world" }] }],
    });
    expect(status).toBe(200);
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      id: "resp_fake000001",
      object: "response",
      created_at: 1_700_000_000,
      model: "gpt-4o-mini",
      status: "completed",
      instructions: "Be brief.",
      previous_response_id: null,
      output: [
        {
          id: "msg_fake000002",
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", annotations: [], logprobs: [], text: "Echo: hello world" }],
        },
      ],
      // input: (3 + 2 words) + instructions (3 + 2 words); output: 3 words.
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 3,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 13,
      },
    });
  });

  it("continues from a stored response: mentions its id and carries its tokens as cached", async () => {
    const first = JSON.parse((await respond({ model: "m", input: "one two" })).text);
    const second = JSON.parse((await respond({ model: "m", input: "three", previous_response_id: first.id })).text);
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output[0].content[0].text).toBe(`Echo: three (after ${first.id})`);
    const carried = first.usage.input_tokens + first.usage.output_tokens;
    expect(second.usage.input_tokens_details.cached_tokens).toBe(carried);
    expect(second.usage.input_tokens).toBe(carried + 4);
  });

  it("answers OpenAI's 400 for an unknown previous_response_id", async () => {
    const { status, text } = await respond({ model: "m", input: "x", previous_response_id: "resp_nope" });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toEqual({
      error: {
        message: "Previous response with id 'resp_nope' not found.",
        type: "invalid_request_error",
        param: "previous_response_id",
        code: "previous_response_not_found",
      },
    });
  });

  it("marks the response incomplete when max_output_tokens cuts it", async () => {
    const input = Array.from({ length: 20 }, (_, index) => `w${index}`).join(" ");
    const body = JSON.parse((await respond({ model: "m", input, max_output_tokens: 16 })).text);
    expect(body.status).toBe("incomplete");
    expect(body.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(body.usage.output_tokens).toBe(16);
    expect(body.output[0].content[0].text.split(" ")).toHaveLength(16);
  });

  it("streams the documented event sequence with increasing sequence numbers", async () => {
    const { text } = await respond({ model: "gpt-4o-mini", input: "hi you", stream: true });
    const events = parseSseTranscript(text);
    expect(events.map((event) => event.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const payloads = events.map((event) => JSON.parse(event.data));
    payloads.forEach((payload, index) => {
      expect(payload.type).toBe(events[index].event);
      expect(payload.sequence_number).toBe(index);
    });
    expect(payloads[0].response).toMatchObject({
      id: "resp_fake000001",
      status: "in_progress",
      output: [],
      usage: null,
    });
    expect(payloads.slice(4, 7).map((payload) => payload.delta)).toEqual(["Echo:", " hi", " you"]);
    expect(payloads[4]).toEqual({
      type: "response.output_text.delta",
      sequence_number: 4,
      item_id: "msg_fake000002",
      output_index: 0,
      content_index: 0,
      delta: "Echo:",
      logprobs: [],
    });
    expect(payloads[7].text).toBe("Echo: hi you");
    expect(payloads[10].response).toMatchObject({
      id: "resp_fake000001",
      status: "completed",
      usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 },
    });
  });

  it("adds a hidden reasoning item and reasoning tokens for reasoning requests", async () => {
    const body = JSON.parse((await respond({ model: "m", input: "why", reasoning: { effort: "low" } })).text);
    expect(body.output.map((item: { type: string }) => item.type)).toEqual(["reasoning", "message"]);
    expect(body.reasoning).toEqual({ effort: "low", summary: null });
    expect(body.usage.output_tokens_details.reasoning_tokens).toBe(3);
    expect(body.usage.output_tokens).toBe(5);
  });

  it("requires model and input", async () => {
    expect(JSON.parse((await respond({ input: "x" })).text).error.message).toBe("you must provide a model parameter");
    expect(JSON.parse((await respond({ model: "m" })).text).error).toMatchObject({
      param: "input",
      code: "missing_required_parameter",
    });
  });
});
