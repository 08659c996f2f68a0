import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";
import { convertOpenaiChatUsage, convertOpenaiResponsesUsage } from "../../../http/convert-openai-usage.js";
import { inlineReasoningIntoContent } from "./inline-reasoning-into-content.js";

const validate = createOpenaiSchemaValidator();
const readAnswer = (name: string) =>
  JSON.parse(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), "utf8"));

describe("recorded OpenAI-compatible answers, as relayOpenaiChat reads them", () => {
  it("svc_thinking_to_content puts the reasoning before the answer in <think> tags and drops the field", () => {
    const completion = readAnswer("chat-reasoning.json");
    inlineReasoningIntoContent(completion);
    expect(completion.choices[0].message).toEqual({
      role: "assistant",
      content: "<think>\nCompare 9.11 and 9.9: 0.90 > 0.11.\n</think>\n\n9.9 is larger.",
    });
    expect(validate("ChatCompletion", completion)).toEqual([]);
  });

  it("leaves a message without reasoning untouched", () => {
    const completion = readAnswer("chat-audio.json");
    const before = structuredClone(completion);
    inlineReasoningIntoContent(completion);
    expect(completion).toEqual(before);
  });

  it("meters reasoning inside completion tokens and cached prompt tokens", () => {
    expect(convertOpenaiChatUsage(readAnswer("chat-reasoning.json").usage)).toEqual({
      promptTokens: 17,
      completionTokens: 64,
      cachedTokens: 0,
      reasoningTokens: 52,
    });
  });

  it("meters audio input and output tokens apart, and leaves zero counts out", () => {
    expect(convertOpenaiChatUsage(readAnswer("chat-audio.json").usage)).toEqual({
      promptTokens: 31,
      completionTokens: 58,
      cachedTokens: 0,
      reasoningTokens: 0,
      audioInputTokens: 12,
      audioOutputTokens: 50,
    });
  });

  it("reads Responses usage names, details absent or null as zero", () => {
    expect(
      convertOpenaiResponsesUsage({
        input_tokens: 40,
        output_tokens: 9,
        input_tokens_details: null,
        output_tokens_details: { reasoning_tokens: 4 },
      }),
    ).toEqual({ promptTokens: 40, completionTokens: 9, cachedTokens: 0, reasoningTokens: 4 });
  });
});
