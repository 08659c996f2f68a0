import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/invalid-request-error.js";
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
