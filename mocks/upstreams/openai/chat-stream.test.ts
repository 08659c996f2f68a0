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

async function streamChat(body: Record<string, unknown>) {
  const response = await fetch(`${upstream.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const events = parseSseTranscript(await response.text());
  expect(events.at(-1)).toEqual({ data: "[DONE]" });
  return events.slice(0, -1).map((event) => JSON.parse(event.data));
}

const envelope = {
  id: "chatcmpl-fake000001",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "gpt-4o-mini",
  service_tier: "default",
  system_fingerprint: "fp_fake",
};
const choice = (delta: object, finishReason: string | null = null) => ({
  ...envelope,
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
});

describe("streamed chat completions", () => {
  it("sends role, one chunk per word, finish, then [DONE] without usage by default", async () => {
    const chunks = await streamChat({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi there" }] });
    expect(chunks).toEqual([
      choice({ role: "assistant", content: "", refusal: null }),
      choice({ content: "Echo:" }),
      choice({ content: " hi" }),
      choice({ content: " there" }),
      choice({}, "stop"),
    ]);
  });

  it("adds usage: null to every chunk and a final usage chunk with include_usage", async () => {
    const chunks = await streamChat({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi there" }],
      stream_options: { include_usage: true },
    });
    expect(chunks).toHaveLength(6);
    expect(chunks.slice(0, 5).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks[5]).toEqual({
      ...envelope,
      choices: [],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 3,
        total_tokens: 8,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    });
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set(["chatcmpl-fake000001"]));
  });

  it("streams a tool call as OpenAI does: head with id and name, then argument fragments", async () => {
    const chunks = await streamChat({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Paris today" }],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
        },
      ],
    });
    expect(chunks).toEqual([
      choice({ role: "assistant", content: null, refusal: null }),
      choice({
        tool_calls: [
          { index: 0, id: "call_fake000002", type: "function", function: { name: "get_weather", arguments: "" } },
        ],
      }),
      choice({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris' } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: ' today"}' } }] }),
      choice({}, "tool_calls"),
    ]);
  });

  it("streams reasoning_content before content", async () => {
    const chunks = await streamChat({
      model: "gpt-4o-mini",
      thinking: { type: "enabled" },
      messages: [{ role: "user", content: "why" }],
      stream_options: { include_usage: true },
    });
    const deltas = chunks.slice(0, -1).map((chunk) => chunk.choices[0].delta);
    expect(deltas).toEqual([
      { role: "assistant", content: "", refusal: null },
      { reasoning_content: "Thinking" },
      { reasoning_content: " about:" },
      { reasoning_content: " why" },
      { content: "Echo:" },
      { content: " why" },
      {},
    ]);
    expect(chunks.at(-1).usage.completion_tokens_details.reasoning_tokens).toBe(3);
    expect(chunks.at(-1).usage.completion_tokens).toBe(5);
  });

  it("ends with finish_reason length when max_tokens cuts the stream", async () => {
    const chunks = await streamChat({
      model: "gpt-4o-mini",
      max_tokens: 1,
      messages: [{ role: "user", content: "a b c" }],
    });
    expect(chunks.map((chunk) => chunk.choices[0].delta)).toEqual([
      { role: "assistant", content: "", refusal: null },
      { content: "Echo:" },
      {},
    ]);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("length");
  });
});
