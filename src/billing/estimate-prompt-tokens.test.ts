import { describe, expect, it } from "vitest";
import { estimatePromptTokens, MEDIA_PART_TOKENS } from "./estimate-prompt-tokens.js";

describe("estimatePromptTokens", () => {
  it("counts ASCII text at 3 characters per token plus 4 per message and 3 per request", () => {
    const body = { model: "gpt", messages: [{ role: "user", content: "hello world!" }] };
    // "gpt" + "user" + "hello world!" = 19 characters → 7 tokens; 1 message → 4; request → 3
    expect(estimatePromptTokens(body)).toBe(14);
  });

  it("counts every non-ASCII character as a whole token", () => {
    // A string input is not a message list: no per-message framing.
    expect(estimatePromptTokens({ input: "你好世界" })).toBe(3 + 4);
    expect(estimatePromptTokens({ input: "😀" })).toBe(3 + 2);
  });

  it("costs an image part a fixed amount whatever its size", () => {
    const huge = `data:image/png;base64,${"A".repeat(1_000_000)}`;
    const withDataUri = { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: huge } }] }] };
    const withUrl = {
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }] }],
    };
    expect(estimatePromptTokens(withDataUri)).toBe(estimatePromptTokens(withUrl));
    expect(estimatePromptTokens(withDataUri)).toBe(3 + 4 + 2 + MEDIA_PART_TOKENS); // "user" → 2
    const native = {
      contents: [
        { role: "user", parts: [{ text: "abc" }, { inlineData: { mimeType: "image/png", data: "A".repeat(10_000) } }] },
      ],
    };
    expect(estimatePromptTokens(native)).toBe(3 + 4 + Math.ceil(7 / 3) + MEDIA_PART_TOKENS);
    expect(
      estimatePromptTokens({ input: [{ role: "user", content: [{ type: "input_image", image_url: "https://x" }] }] }),
    ).toBe(3 + 4 + 2 + MEDIA_PART_TOKENS);
    // Anthropic's Messages blocks: a base64 image or PDF document costs the same fixed amount.
    const pdf = { type: "base64", media_type: "application/pdf", data: "J".repeat(1_000_000) };
    expect(estimatePromptTokens({ messages: [{ role: "user", content: [{ type: "document", source: pdf }] }] })).toBe(
      3 + 4 + 2 + MEDIA_PART_TOKENS,
    );
  });

  it("counts pre-tokenized embedding input one token per id", () => {
    expect(estimatePromptTokens({ input: [1, 2, 3, 4, 5] })).toBe(3 + 5);
    expect(estimatePromptTokens({ input: [[1, 2], [3]] })).toBe(3 + 3);
    // Numbers outside arrays are parameters, not prompt.
    expect(estimatePromptTokens({ temperature: 0.5, max_tokens: 100 })).toBe(3);
  });

  it("counts instructions, system prompts and tool definitions", () => {
    const bare = estimatePromptTokens({ messages: [{ role: "user", content: "hi" }] });
    const withTools = estimatePromptTokens({
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function", function: { name: "get_weather", description: "Weather for a city" } }],
    });
    expect(withTools).toBeGreaterThan(bare + 10);
  });

  it("is never below the real count for typical English text (about 4 characters per token)", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(100);
    expect(estimatePromptTokens({ messages: [{ role: "user", content: text }] })).toBeGreaterThanOrEqual(
      Math.ceil(text.length / 4),
    );
  });

  it("handles non-objects and deep nesting without recursion", () => {
    expect(estimatePromptTokens(undefined)).toBe(3);
    expect(estimatePromptTokens("abcdef")).toBe(5);
    let deep: unknown = "abc";
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(estimatePromptTokens({ messages: deep })).toBe(3 + 1);
  });
});
