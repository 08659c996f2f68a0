import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { GatewayError } from "../../../errors/gateway-error.js";
import { upstreamStatusFailure } from "../../../upstream/upstream-failure.js";
import { toImageFailure } from "../../image-families/to-image-failure.js";
import { buildImgCUpstreamRequest } from "./build-img-c-upstream-request.js";
import { convertOpenaiImageResponse, type OpenaiImageAnswer } from "./convert-openai-image-response.js";
import { readOpenaiImageError } from "../../image-families/read-openai-image-error.js";

const answer = JSON.parse(
  readFileSync(new URL("../__fixtures__/img-c-generation.answer.json", import.meta.url), "utf8"),
) as OpenaiImageAnswer;

describe("img-c-2 on the OpenAI images API (recorded bodies)", () => {
  it("sends generations as JSON with the document's defaults and without response_format", () => {
    expect(
      buildImgCUpstreamRequest(
        { model: "img-c-2", prompt: "a bakery", n: 2, response_format: "b64_json", background: "transparent" },
        "gpt-image-1",
        [],
        "a bakery",
      ),
    ).toEqual({
      operation: "images/generations",
      json: {
        model: "gpt-image-1",
        prompt: "a bakery",
        n: 2,
        background: "transparent",
        size: "1024x1024",
        quality: "high",
      },
    });
  });

  it("sends an edit as multipart with one image[] part per input image", async () => {
    const request = buildImgCUpstreamRequest(
      {
        model: "img-c-2",
        prompt: "p",
        image: "https://a.example/1.png",
        input_fidelity: "low",
        size: "1536x1024",
        quality: "low",
      },
      "gpt-image-1",
      [
        { bytes: Buffer.from("one"), mimeType: "image/png", filename: "image-1.png" },
        { bytes: Buffer.from("two"), mimeType: "image/jpeg", filename: "image-2.jpg" },
      ],
      "p",
    );
    expect(request.operation).toBe("images/edits");
    const form = "form" in request ? request.form : undefined;
    expect(Object.fromEntries([...form!.entries()].filter(([, value]) => typeof value === "string"))).toEqual({
      model: "gpt-image-1",
      prompt: "p",
      input_fidelity: "low",
      size: "1536x1024",
      quality: "low",
    });
    const files = form!.getAll("image[]") as File[];
    expect(files.map((file) => [file.name, file.type])).toEqual([
      ["image-1.png", "image/png"],
      ["image-2.jpg", "image/jpeg"],
    ]);
  });

  it("converts the answer to the other-families result, billed per image plus tokens", () => {
    const { result, usage } = convertOpenaiImageResponse(answer, { model: "img-c-2", now: 1, inputImages: 0 });
    expect(result).toEqual({
      model: "img-c-2",
      created: 1767225600,
      data: [
        { b64_json: "iVBORw0KGgoAAAANSUhEUg==", size: "1024x1536", output_format: "png" },
        { b64_json: "iVBORw0KGgoAAAANSUhEUh==", size: "1024x1536", output_format: "png" },
      ],
      usage: { input_images: 0, generated_images: 2, output_tokens: 12480, total_tokens: 12492 },
    });
    expect(usage).toEqual({
      promptTokens: 12,
      completionTokens: 12480,
      cachedTokens: 0,
      reasoningTokens: 0,
      imageCount: 2,
      imageOutputTokens: 12480,
    });
    expect(() => convertOpenaiImageResponse({ data: [] }, { model: "img-c-2", now: 1, inputImages: 0 })).toThrow(
      expect.objectContaining({ status: 502, code: "empty_response" }),
    );
  });

  it("maps the safety system's refusal to prompt_blocked and a bad value to invalid_parameter", () => {
    const map = (status: number, body: string) =>
      toImageFailure(upstreamStatusFailure(status, {}, body, []), {
        readError: readOpenaiImageError,
        secrets: [],
      }) as GatewayError;
    expect(
      map(
        400,
        '{"error":{"message":"Your request was rejected as a result of our safety system.","type":"image_generation_user_error","param":null,"code":"moderation_blocked"}}',
      ),
    ).toMatchObject({ status: 400, code: "prompt_blocked" });
    expect(
      map(
        400,
        `{"error":{"message":"Invalid value: '512x512'.","type":"invalid_request_error","param":"size","code":"invalid_value"}}`,
      ),
    ).toMatchObject({ status: 400, code: "invalid_parameter", param: "size", message: "Invalid value: '512x512'." });
  });
});
