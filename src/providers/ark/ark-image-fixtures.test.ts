import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors/gateway-error.js";
import { type UpstreamFailure, upstreamStatusFailure } from "../../upstream/upstream-failure.js";
import { toImageFailure } from "../image-families/to-image-failure.js";
import type { ArkImageAnswer } from "./ark-image-wire.js";
import { convertArkImageResponse } from "./convert-ark-image-response.js";
import { convertImageRequestToArk } from "./convert-image-request-to-ark.js";
import { readArkError } from "./read-ark-error.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const json = <T>(name: string) => JSON.parse(fixture(name)) as T;

function mapped(status: number, body: string, headers: Record<string, string> = {}): GatewayError {
  const failure = toImageFailure(upstreamStatusFailure(status, headers, body, []), {
    readError: readArkError,
    secrets: ["ark-channel-secret"],
  });
  expect(failure).toBeInstanceOf(GatewayError);
  return failure as GatewayError;
}

describe("ARK Seedream images (recorded bodies)", () => {
  it("sends exactly the fields the family needs: watermark false explicitly, raw base64 as a data URI", () => {
    const sent = convertImageRequestToArk(
      "img-b",
      json("seedream-4-0-sequential.client.json"),
      "doubao-seedream-4-0-250828",
    );
    expect(sent).toEqual(json("seedream-4-0-sequential.upstream-request.json"));
  });

  it("sends no sequential options outside auto mode and one image as a string for the edit model", () => {
    expect(
      convertImageRequestToArk(
        "img-b",
        {
          prompt: "p",
          image: "https://a.example/1.png",
          sequential_image_generation_options: { max_images: 2 },
          guidance_scale: 5.5,
          watermark: true,
        },
        "edit-3-0",
      ),
    ).toEqual({
      model: "edit-3-0",
      prompt: "p",
      image: "https://a.example/1.png",
      guidance_scale: 5.5,
      watermark: true,
    });
  });

  it("sends img-b-5-0-pro its images as ARK's image array, jpeg unless png was asked, no n", () => {
    expect(
      convertImageRequestToArk(
        "img-b-pro",
        {
          prompt: "mug",
          n: 3,
          quality: "standard",
          size: "2K",
          images: ["https://a.example/m.jpg"],
          response_format: "b64_json",
        },
        "seedream-5-0-pro",
      ),
    ).toEqual({
      model: "seedream-5-0-pro",
      prompt: "mug",
      image: ["https://a.example/m.jpg"],
      size: "2K",
      response_format: "b64_json",
      output_format: "jpeg",
      watermark: false,
    });
  });

  it("converts an answer with a failed group item to the other-families result, billed per image returned", () => {
    const { result, usage } = convertArkImageResponse(json<ArkImageAnswer>("seedream-4-0-sequential.answer.json"), {
      model: "img-b-4-0-250828",
      now: 1,
      outputFormat: "jpeg",
      inputImages: 2,
      singleImage: false,
    });
    expect(result).toEqual(json("seedream-4-0-sequential.result.json"));
    expect(usage.imageCount).toBe(2);
  });

  it("keeps one image for img-b-5-0-pro and reads created_at", () => {
    const { result, usage } = convertArkImageResponse(json<ArkImageAnswer>("seedream-5-0-pro.answer.json"), {
      model: "img-b-5-0-pro-260628",
      now: 1,
      outputFormat: "png",
      inputImages: 0,
      singleImage: true,
    });
    expect(result.created).toBe(1767225600);
    expect(result.data).toEqual([{ b64_json: "iVBORw0KGgo=", size: "2048x2048", output_format: "png" }]);
    expect(result.usage).toMatchObject({ generated_images: 1 });
    expect(usage.imageCount).toBe(1);
  });

  it("answers an empty data list with 502 empty_response and an all-blocked group with prompt_blocked", () => {
    const options = { model: "m", now: 1, outputFormat: "jpeg", inputImages: 0, singleImage: false };
    const empty = (() => {
      try {
        convertArkImageResponse({ data: [], usage: { generated_images: 0 } }, options);
      } catch (error) {
        return error as UpstreamFailure;
      }
    })();
    expect(empty).toMatchObject({ status: 502, code: "empty_response", retryable: false });
    expect(() =>
      convertArkImageResponse({ data: [{ error: { code: "OutputImageSensitiveContentDetected" } }] }, options),
    ).toThrow(expect.objectContaining({ status: 400, code: "prompt_blocked" }));
  });

  it("maps ARK errors to the image error table", () => {
    expect(mapped(400, fixture("error-sensitive-content.json"))).toMatchObject({ status: 400, code: "prompt_blocked" });
    const invalid = mapped(400, fixture("error-invalid-parameter.json"));
    expect(invalid).toMatchObject({ status: 400, code: "invalid_parameter", param: "size" });
    expect(invalid.message).toMatch(/^The parameter `size` specified in the request is not valid/);
    expect(mapped(401, fixture("error-authentication.json"))).toMatchObject({
      status: 503,
      code: "bad_response",
      retryable: true,
    });
    expect(mapped(500, fixture("error-server-overloaded.json"))).toMatchObject({
      status: 503,
      code: "bad_response",
      retryable: true,
    });
    expect(
      mapped(429, '{"error":{"code":"RateLimitExceeded.EndpointRPMExceeded","message":"slow down"}}', {
        "retry-after": "7",
      }),
    ).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      retryAfterSeconds: 7,
    });
    expect(mapped(504, "gateway timeout")).toMatchObject({ status: 504, code: "request_timeout" });
  });

  it("never passes the channel's key on in a provider message", () => {
    const echoed = mapped(
      400,
      '{"error":{"code":"InvalidParameter","message":"bad key ark-channel-secret and sk-abcdefghijklmnopqrstuvwx"}}',
    );
    // The channel's own key is hidden whole; a key-shaped stranger was already masked where the body was captured.
    expect(echoed.message).toBe("bad key *** and sk-a**********uvwx");
    expect(echoed.message).not.toContain("abcdefghijklmnopqrstuvwx");
  });
});
