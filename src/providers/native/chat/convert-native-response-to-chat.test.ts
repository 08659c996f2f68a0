import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertNativeResponseToChat } from "./convert-native-response-to-chat.js";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";

const validate = createOpenaiSchemaValidator();
const readFixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), "utf8"));
const created = 1_749_721_287;

const cases = [
  {
    fixture: "generate-text.json",
    expected: "generate-text.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-thinking.json",
    expected: "generate-thinking.include-thoughts.chat.json",
    model: "gmx-3.1-pro-preview-thinking",
    includeThoughts: true,
  },
  {
    fixture: "generate-thinking.json",
    expected: "generate-thinking.exclude-thoughts.chat.json",
    model: "gmx-3.1-pro-preview",
    includeThoughts: false,
  },
  {
    fixture: "generate-function-call.json",
    expected: "generate-function-call.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-function-call-with-id.json",
    expected: "generate-function-call-with-id.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-code-execution.json",
    expected: "generate-code-execution.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-image.json",
    expected: "generate-image.chat.json",
    model: "gmx-3.1-flash-image-preview",
    includeThoughts: false,
  },
  {
    fixture: "generate-audio.json",
    expected: "generate-audio.chat.json",
    model: "gmx-3.1-flash-tts-preview",
    includeThoughts: false,
  },
  {
    fixture: "generate-cached-usage.json",
    expected: "generate-cached-usage.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-blocked-prompt.json",
    expected: "generate-blocked-prompt.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-safety.json",
    expected: "generate-safety.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-recitation.json",
    expected: "generate-recitation.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-max-tokens.json",
    expected: "generate-max-tokens.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-two-candidates.json",
    expected: "generate-two-candidates.chat.json",
    model: "gmx-3.5-flash",
    includeThoughts: false,
  },
  {
    fixture: "generate-logprobs.json",
    expected: "generate-logprobs.chat.json",
    model: "gmx-2.5-flash",
    includeThoughts: false,
  },
];

describe("convertNativeResponseToChat", () => {
  it.each(cases)("$fixture → $expected", async ({ fixture, expected, model, includeThoughts }) => {
    const converted = convertNativeResponseToChat(readFixture(fixture), { model, includeThoughts, created });
    expect(validate("ChatCompletion", converted.completion)).toEqual([]);
    await expect(`${JSON.stringify(converted, null, 2)}\n`).toMatchFileSnapshot(`../__fixtures__/expected/${expected}`);
  });

  it("bills completion tokens as candidates plus thoughts, and image output apart", () => {
    const { usage } = convertNativeResponseToChat(readFixture("generate-cached-usage.json"), {
      model: "m",
      includeThoughts: false,
      created,
    });
    expect(usage).toEqual({
      promptTokens: 4218,
      completionTokens: 1426,
      cachedTokens: 4096,
      reasoningTokens: 96,
      imageOutputTokens: 1290,
    });
  });

  it("names a blocked prompt's reason and content_filter", () => {
    const { completion } = convertNativeResponseToChat(readFixture("generate-blocked-prompt.json"), {
      model: "m",
      includeThoughts: false,
      created,
    });
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: {
          role: "assistant",
          content:
            "The upstream model refused to process the prompt: it was blocked for SAFETY (HARM_CATEGORY_DANGEROUS_CONTENT). Rephrase the request and try again.",
        },
        finish_reason: "content_filter",
      },
    ]);
  });

  it("gives the same tool call ids for the same answer, and prefers the upstream's own call id", () => {
    const first = convertNativeResponseToChat(readFixture("generate-function-call.json"), {
      model: "m",
      includeThoughts: false,
      created,
    });
    const second = convertNativeResponseToChat(readFixture("generate-function-call.json"), {
      model: "m",
      includeThoughts: false,
      created,
    });
    const ids = first.completion.choices[0].message.tool_calls!.map((call) => call.id);
    expect(ids).toEqual(second.completion.choices[0].message.tool_calls!.map((call) => call.id));
    expect(new Set(ids).size).toBe(2);
    const withId = convertNativeResponseToChat(readFixture("generate-function-call-with-id.json"), {
      model: "m",
      includeThoughts: false,
      created,
    });
    expect(withId.completion.choices[0].message.tool_calls![0].id).toBe("fc-7f3a0b1c");
  });

  it("falls back to a chatcmpl- id when the upstream sends no responseId", () => {
    const { completion } = convertNativeResponseToChat(readFixture("generate-without-response-id.json"), {
      model: "m",
      includeThoughts: false,
      created,
    });
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(validate("ChatCompletion", completion)).toEqual([]);
  });
});
