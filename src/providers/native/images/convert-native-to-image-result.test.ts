import { describe, expect, it } from "vitest";
import { convertNativeToImageResult } from "./convert-native-to-image-result.js";

describe("convertNativeToImageResult", () => {
  it("returns each image as b64_json with empty url, the text as revised_prompt, token usage and the image count", () => {
    const { result, usage } = convertNativeToImageResult(
      {
        candidates: [
          {
            content: {
              role: "model",
              parts: [{ text: "Here it is." }, { inlineData: { mimeType: "image/png", data: "QUJD" } }],
            },
            finishReason: "STOP",
          },
        ],
        usageMetadata: {
          promptTokenCount: 330,
          candidatesTokenCount: 1295,
          promptTokensDetails: [
            { modality: "TEXT", tokenCount: 12 },
            { modality: "IMAGE", tokenCount: 318 },
          ],
          candidatesTokensDetails: [
            { modality: "IMAGE", tokenCount: 1290 },
            { modality: "TEXT", tokenCount: 5 },
          ],
        },
      },
      { created: 1767225600 },
    );
    expect(result).toEqual({
      created: 1767225600,
      data: [{ b64_json: "QUJD", url: "", revised_prompt: "Here it is." }],
      metadata: { text: "Here it is." },
      usage: {
        total_tokens: 1625,
        input_tokens: 330,
        output_tokens: 1295,
        input_tokens_details: { text_tokens: 12, image_tokens: 318 },
        output_tokens_details: { image_tokens: 1290, text_tokens: 5 },
      },
    });
    expect(usage).toMatchObject({ promptTokens: 330, completionTokens: 1295, imageOutputTokens: 1290, imageCount: 1 });
  });

  it("puts all output tokens on the image without a breakdown, and all input on text", () => {
    const { result } = convertNativeToImageResult(
      {
        candidates: [{ content: { parts: [{ inlineData: { mimeType: "image/png", data: "QQ==" } }] } }],
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1290 },
      },
      { created: 1 },
    );
    expect(result.usage).toMatchObject({
      input_tokens_details: { text_tokens: 7, image_tokens: 0 },
      output_tokens_details: { image_tokens: 1290, text_tokens: 0 },
    });
    expect(result.data[0]!.revised_prompt).toBe("");
  });

  it("answers 400 prompt_blocked for a blocked prompt or a safety stop without an image", () => {
    expect(() => convertNativeToImageResult({ promptFeedback: { blockReason: "SAFETY" } }, { created: 1 })).toThrow(
      expect.objectContaining({ status: 400, code: "prompt_blocked" }),
    );
    expect(() =>
      convertNativeToImageResult(
        { candidates: [{ content: { parts: [] }, finishReason: "IMAGE_SAFETY" }] },
        { created: 1 },
      ),
    ).toThrow(expect.objectContaining({ status: 400, code: "prompt_blocked" }));
  });

  it("answers 502 empty_response when the upstream returned no image", () => {
    expect(() =>
      convertNativeToImageResult(
        { candidates: [{ content: { parts: [{ text: "sorry" }] }, finishReason: "STOP" }] },
        { created: 1 },
      ),
    ).toThrow(expect.objectContaining({ status: 502, code: "empty_response", type: "upstream_error" }));
  });
});
