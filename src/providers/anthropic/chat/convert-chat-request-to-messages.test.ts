import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { convertChatRequestToMessages } from "./convert-chat-request-to-messages.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];

const request = (reasoningEffort?: string): ChatRequest =>
  ({
    model: "claude-a",
    messages: [{ role: "user", content: "hi" }],
    ...(reasoningEffort === undefined ? {} : { reasoning_effort: reasoningEffort }),
  }) as ChatRequest;

describe("reasoning_effort on a Claude channel", () => {
  it("turns the levels it knows into a thinking budget below max_tokens", () => {
    const body = convertChatRequestToMessages(request("medium"), "upstream-claude");
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(body.max_tokens as number).toBeGreaterThan(2048);
    expect(convertChatRequestToMessages(request("none"), "upstream-claude").thinking).toBeUndefined();
    expect(convertChatRequestToMessages(request(), "upstream-claude").thinking).toBeUndefined();
  });

  it("refuses a level it cannot budget with a 400 naming the field, instead of dropping it", () => {
    let caught: unknown;
    try {
      convertChatRequestToMessages(request("xhigh"), "upstream-claude");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRequestError);
    expect((caught as InvalidRequestError).options).toMatchObject({ param: "reasoning_effort" });
    expect((caught as InvalidRequestError).status).toBe(400);
  });
});

const weatherTool = {
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};
const cityFormat = {
  type: "json_schema",
  json_schema: { name: "city_answer", description: "A city.", schema: { type: "object" } },
};
const convert = (fields: Record<string, unknown>) =>
  convertChatRequestToMessages(
    { model: "claude-a", messages: [{ role: "user", content: "hi" }], ...fields } as ChatRequest,
    "upstream-claude",
  );

describe("response_format on a Claude channel", () => {
  it("becomes the one tool Claude is made to call", () => {
    expect(convert({ response_format: cityFormat })).toMatchObject({
      tools: [{ name: "city_answer", description: "A city.", input_schema: { type: "object" } }],
      tool_choice: { type: "tool", name: "city_answer" },
    });
    expect(convert({ response_format: { type: "json_object" } })).toMatchObject({
      tools: [{ name: "json_object", input_schema: { type: "object", additionalProperties: true } }],
      tool_choice: { type: "tool", name: "json_object" },
    });
    expect(convert({ response_format: { type: "text" } }).tools).toBeUndefined();
  });

  it("beside the client's tools: any of them or the format, the client's named choice kept, none leaving the format alone", () => {
    const names = (body: Record<string, unknown>) => (body.tools as Array<{ name: string }>).map((tool) => tool.name);
    const offered = convert({ response_format: cityFormat, tools: [weatherTool] });
    expect(names(offered)).toEqual(["get_weather", "city_answer"]);
    expect(offered.tool_choice).toEqual({ type: "any" });
    const named = convert({
      response_format: cityFormat,
      tools: [weatherTool],
      tool_choice: { type: "function", function: { name: "get_weather" } },
    });
    expect(named.tool_choice).toEqual({ type: "tool", name: "get_weather" });
    const none = convert({ response_format: cityFormat, tools: [weatherTool], tool_choice: "none" });
    expect(names(none)).toEqual(["city_answer"]);
    expect(none.tool_choice).toEqual({ type: "tool", name: "city_answer" });
  });

  it("refuses a format named like a client tool, and a format with thinking on", () => {
    expect(() =>
      convert({ response_format: { ...cityFormat, json_schema: { name: "get_weather" } }, tools: [weatherTool] }),
    ).toThrow(InvalidRequestError);
    expect(() => convert({ response_format: cityFormat, thinking: { type: "enabled" } })).toThrow(/response_format/);
  });
});

describe("signed thinking sent back on a Claude channel", () => {
  const signed = { type: "thinking", thinking: "Thinking about: Paris", signature: "EqSig_abc" };
  const toolLoop = (extraContent: unknown) => [
    { role: "user", content: "Paris" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      ],
      ...(extraContent === undefined ? {} : { extra_content: extraContent }),
    },
    { role: "tool", tool_call_id: "toolu_1", content: "18 degrees" },
  ];

  it("opens the tool turn again and keeps thinking on", () => {
    const body = convert({
      messages: toolLoop({ anthropic: { thinking_blocks: [signed, { type: "redacted_thinking", data: "ENC" }] } }),
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect((body.messages as Array<{ content: unknown[] }>)[1]!.content).toEqual([
      signed,
      { type: "redacted_thinking", data: "ENC" },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
    ]);
  });

  it("leaves thinking off for a tool turn without them, and refuses blocks of another shape", () => {
    expect(convert({ messages: toolLoop(undefined), reasoning_effort: "low" }).thinking).toBeUndefined();
    expect(() => convert({ messages: toolLoop({ anthropic: { thinking_blocks: [{ type: "thinking" }] } }) })).toThrow(
      /extra_content\.anthropic\.thinking_blocks/,
    );
  });
});
