import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors/gateway-error.js";
import { upstreamStatusFailure } from "../../upstream/upstream-failure.js";
import { downloadResultImages } from "../image-families/download-result-images.js";
import { toImageFailure } from "../image-families/to-image-failure.js";
import { convertDashscopeImageResponse } from "./convert-dashscope-image-response.js";
import { convertImageRequestToDashscope } from "./convert-image-request-to-dashscope.js";
import type { DashscopeImageAnswer } from "./dashscope-image-wire.js";
import { readDashscopeError } from "./read-dashscope-error.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const json = <T>(name: string) => JSON.parse(fixture(name)) as T;

function mapped(status: number, body: string, headers: Record<string, string> = {}): GatewayError {
  const failure = toImageFailure(upstreamStatusFailure(status, headers, body, []), {
    readError: readDashscopeError,
    secrets: ["ds-channel-secret"],
  });
  expect(failure).toBeInstanceOf(GatewayError);
  return failure as GatewayError;
}

describe("DashScope multimodal image generation (recorded bodies)", () => {
  it("sends input.messages with images before text and only the client's parameters", () => {
    const sent = convertImageRequestToDashscope(
      json("edit-plus.client.json"),
      "img-d-edit-plus",
      "qwen-image-edit-plus",
    );
    expect(sent).toEqual(json("edit-plus.upstream-request.json"));
    expect(
      convertImageRequestToDashscope(
        { input: { messages: [{ role: "user", content: [{ text: "a lantern" }] }] } },
        "img-d-plus",
        "qwen-image-plus",
      ),
    ).toEqual({ model: "qwen-image-plus", input: { messages: [{ role: "user", content: [{ text: "a lantern" }] }] } });
  });

  it("converts the answer to the other-families result, billed per image returned", () => {
    const { result, usage } = convertDashscopeImageResponse(json<DashscopeImageAnswer>("edit-plus.answer.json"), {
      model: "img-d-edit-plus",
      now: 1767225600,
      inputImages: 2,
    });
    expect(result).toEqual(json("edit-plus.result.json"));
    expect(usage.imageCount).toBe(2);
  });

  it("answers a 200 without an image with 502 empty_response", () => {
    expect(() =>
      convertDashscopeImageResponse(json<DashscopeImageAnswer>("empty-choices.answer.json"), {
        model: "m",
        now: 1,
        inputImages: 0,
      }),
    ).toThrow(expect.objectContaining({ status: 502, code: "empty_response" }));
  });

  it("produces b64_json by downloading each result URL", async () => {
    const { result } = convertDashscopeImageResponse(json<DashscopeImageAnswer>("edit-plus.answer.json"), {
      model: "img-d-edit-plus",
      now: 1767225600,
      inputImages: 2,
    });
    const fetched: string[] = [];
    const encoded = await downloadResultImages(result, async (url) => {
      fetched.push(url);
      return { mimeType: "image/png", data: Buffer.from(url.includes("a1") ? "one" : "two") };
    });
    expect(fetched).toHaveLength(2);
    expect(encoded.data).toEqual([
      { b64_json: Buffer.from("one").toString("base64"), size: "1536x1024", output_format: "png" },
      { b64_json: Buffer.from("two").toString("base64"), size: "1536x1024", output_format: "png" },
    ]);
  });

  it("maps DashScope errors to the image error table", () => {
    expect(mapped(400, fixture("error-data-inspection.json"))).toMatchObject({ status: 400, code: "prompt_blocked" });
    const invalid = mapped(400, fixture("error-invalid-parameter.json"));
    expect(invalid).toMatchObject({ status: 400, code: "invalid_parameter" });
    expect(invalid.message).toMatch(/^The size is not match the allowed size/);
    expect(mapped(401, fixture("error-invalid-api-key.json"))).toMatchObject({ status: 503, code: "bad_response" });
    expect(
      mapped(400, '{"code":"Arrearage","message":"Access denied, please make sure your account is in good standing."}'),
    ).toMatchObject({
      status: 503,
      code: "bad_response",
    });
    expect(mapped(429, fixture("error-throttling.json"), { "retry-after": "3" })).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      retryAfterSeconds: 3,
    });
    expect(mapped(500, '{"code":"InternalError","message":"boom"}')).toMatchObject({
      status: 503,
      code: "bad_response",
    });
  });
});
