import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";
import { readJson } from "../shared/read-json.js";

const fixedNow = 1_700_000_000_000;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer({ now: () => fixedNow });
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

async function chat(body: unknown) {
  const response = await fetch(`${upstream.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await readJson(response) };
}

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("POST /v1/chat/completions", () => {
  it("echoes the last user message with exact usage", async () => {
    const { status, body } = await chat({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Hello   there\nworld" }] },
      ],
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      id: "chatcmpl-fake000001",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Echo: Hello there world", refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      // prompt: (3 + 2) + (3 + 3); completion: 4 words.
      usage: {
        prompt_tokens: 11,
        completion_tokens: 4,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: "default",
      system_fingerprint: "fp_fake",
    });
  });

  it("truncates to max_tokens (and max_completion_tokens) with finish_reason length", async () => {
    const messages = [{ role: "user", content: "one two three four" }];
    const byMaxTokens = await chat({ model: "m", messages, max_tokens: 2 });
    expect(byMaxTokens.body.choices[0].message.content).toBe("Echo: one");
    expect(byMaxTokens.body.choices[0].finish_reason).toBe("length");
    expect(byMaxTokens.body.usage.completion_tokens).toBe(2);
    const byCompletionTokens = await chat({ model: "m", messages, max_completion_tokens: 3, max_tokens: 100 });
    expect(byCompletionTokens.body.choices[0].message.content).toBe("Echo: one two");
  });

  it("calls the first tool with arguments from the text", async () => {
    const { body } = await chat({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Paris please" }],
      tools: [weatherTool, { type: "function", function: { name: "other" } }],
    });
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_fake000002",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris please"}' },
          },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    });
    expect(body.usage.completion_tokens).toBe(2);
  });

  it("uses {} for a tool without string parameters, honours a named tool_choice and tool_choice none", async () => {
    const tools = [weatherTool, { type: "function", function: { name: "ping" } }];
    const named = await chat({
      model: "m",
      messages: [{ role: "user", content: "go" }],
      tools,
      tool_choice: { type: "function", function: { name: "ping" } },
    });
    expect(named.body.choices[0].message.tool_calls[0].function).toEqual({ name: "ping", arguments: "{}" });
    const none = await chat({ model: "m", messages: [{ role: "user", content: "go" }], tools, tool_choice: "none" });
    expect(none.body.choices[0].message.content).toBe("Echo: go");
    expect(none.body.choices[0].finish_reason).toBe("stop");
  });

  it("answers a tool result with text that includes it", async () => {
    const { body } = await chat({
      model: "m",
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Paris" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny, 21 C" },
      ],
    });
    expect(body.choices[0].message.content).toBe("Tool result: sunny, 21 C");
    expect(body.choices[0].finish_reason).toBe("stop");
  });

  it("rejects a tool message that answers no tool call, in OpenAI's words", async () => {
    const { status, body } = await chat({
      model: "m",
      messages: [
        { role: "user", content: "x" },
        { role: "tool", tool_call_id: "call_1", content: "y" },
      ],
    });
    expect(status).toBe(400);
    expect(body.error).toEqual({
      message:
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      type: "invalid_request_error",
      param: "messages.[1].role",
      code: null,
    });
  });

  it("returns JSON content for json_object and fills a json_schema", async () => {
    const messages = [{ role: "user", content: "a b" }];
    const jsonObject = await chat({ model: "m", messages, response_format: { type: "json_object" } });
    expect(JSON.parse(jsonObject.body.choices[0].message.content)).toEqual({ echo: "Echo: a b" });
    const jsonSchema = await chat({
      model: "m",
      messages,
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "reply",
          schema: {
            type: "object",
            properties: { answer: { type: "string" }, words: { type: "integer" }, ok: { type: "boolean" } },
          },
        },
      },
    });
    expect(JSON.parse(jsonSchema.body.choices[0].message.content)).toEqual({ answer: "Echo: a b", words: 3, ok: true });
  });

  it.each([
    [{ model: "deepseek-reasoner" }],
    [{ model: "m", thinking: { type: "enabled" } }],
    [{ model: "m", enable_thinking: true }],
  ])("adds reasoning_content and reasoning tokens for %j", async (extra) => {
    const { body } = await chat({ ...extra, messages: [{ role: "user", content: "why" }] });
    expect(body.choices[0].message.reasoning_content).toBe("Thinking about: why");
    expect(body.choices[0].message.content).toBe("Echo: why");
    expect(body.usage.completion_tokens).toBe(5);
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(3);
  });

  it("counts reasoning against max_tokens first", async () => {
    const { body } = await chat({
      model: "deepseek-reasoner",
      messages: [{ role: "user", content: "why" }],
      max_tokens: 4,
    });
    expect(body.choices[0].message).toMatchObject({ reasoning_content: "Thinking about: why", content: "Echo:" });
    expect(body.choices[0].finish_reason).toBe("length");
  });

  it.each([
    [
      { messages: [{ role: "user", content: "x" }] },
      400,
      { message: "you must provide a model parameter", type: "invalid_request_error", param: null, code: null },
    ],
    [
      { model: "m" },
      400,
      {
        message: "Missing required parameter: 'messages'.",
        type: "invalid_request_error",
        param: "messages",
        code: "missing_required_parameter",
      },
    ],
    [
      { model: "m", messages: [] },
      400,
      {
        message:
          "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        type: "invalid_request_error",
        param: "messages",
        code: "empty_array",
      },
    ],
    [
      { model: "m", messages: [{ role: "robot", content: "x" }] },
      400,
      {
        message:
          "Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
        type: "invalid_request_error",
        param: "messages[0].role",
        code: "invalid_value",
      },
    ],
    [
      { model: "m", messages: [{ role: "user", content: "x" }], max_tokens: 0 },
      400,
      {
        message: "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
        type: "invalid_request_error",
        param: "max_tokens",
        code: "integer_below_min_value",
      },
    ],
    [
      { model: "m", messages: [{ role: "user", content: "x" }], stream_options: { include_usage: true } },
      400,
      {
        message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        type: "invalid_request_error",
        param: "stream_options",
        code: null,
      },
    ],
    [
      { model: "missing-model", messages: [{ role: "user", content: "x" }] },
      404,
      {
        message: "The model `missing-model` does not exist or you do not have access to it.",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    ],
  ])("rejects %j", async (body, status, error) => {
    const result = await chat(body);
    expect(result.status).toBe(status);
    expect(result.body).toEqual({ error });
  });

  it("records the request body and headers", async () => {
    await chat({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      body: { model: "m", messages: [{ role: "user", content: "x" }] },
      aborted: false,
    });
    expect(upstream.requests[0].headers["content-type"]).toBe("application/json");
  });
});
