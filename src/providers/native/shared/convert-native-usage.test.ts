import { describe, expect, it } from "vitest";
import { convertNativeUsage } from "./convert-native-usage.js";

describe("convertNativeUsage", () => {
  it("counts thoughts in completion tokens and reads modality names in any case", () => {
    const converted = convertNativeUsage({
      promptTokenCount: 100,
      candidatesTokenCount: 1300,
      thoughtsTokenCount: 50,
      cachedContentTokenCount: 64,
      promptTokensDetails: [
        { modality: "Text", tokenCount: 70 },
        { modality: "audio", tokenCount: 30 },
      ],
      candidatesTokensDetails: [
        { modality: "text", tokenCount: 10 },
        { modality: "Image", tokenCount: 1290 },
      ],
    });
    expect(converted.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 1350,
      total_tokens: 1450,
      prompt_tokens_details: { cached_tokens: 64, text_tokens: 70, audio_tokens: 30 },
      completion_tokens_details: { text_tokens: 10, image_tokens: 1290, reasoning_tokens: 50 },
    });
    expect(converted.meteredUsage).toEqual({
      promptTokens: 100,
      completionTokens: 1350,
      cachedTokens: 64,
      reasoningTokens: 50,
      imageOutputTokens: 1290,
      audioInputTokens: 30,
    });
  });

  it("buckets output by what was produced when the upstream gives no breakdown, whatever the model", () => {
    const usage = { promptTokenCount: 5, candidatesTokenCount: 1290 };
    expect(convertNativeUsage(usage, { producedMedia: new Set(["image"]) }).usage.completion_tokens_details).toEqual({
      image_tokens: 1290,
      reasoning_tokens: 0,
    });
    expect(convertNativeUsage(usage).usage.completion_tokens_details).toEqual({
      text_tokens: 1290,
      reasoning_tokens: 0,
    });
    expect(convertNativeUsage(usage, { producedMedia: new Set(["audio"]) }).meteredUsage.audioOutputTokens).toBe(1290);
  });

  it("prices output tokens the breakdown leaves unassigned as text", () => {
    const converted = convertNativeUsage({
      promptTokenCount: 1,
      candidatesTokenCount: 1300,
      candidatesTokensDetails: [{ modality: "IMAGE", tokenCount: 1290 }],
    });
    expect(converted.usage.completion_tokens_details).toEqual({
      text_tokens: 10,
      image_tokens: 1290,
      reasoning_tokens: 0,
    });
  });

  it("is all zeros without usageMetadata", () => {
    expect(convertNativeUsage(undefined).meteredUsage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
  });
});
