import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { VideoGenerationRequest } from "../../../video/video-generation-request.js";
import { convertVideoRequestToNative } from "./convert-video-request-to-native.js";

const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const jpeg = { bytesBase64Encoded: "/9j/4A==", mimeType: "image/jpeg" };
const png = { bytesBase64Encoded: pngBase64, mimeType: "image/png" };

function refusal(request: VideoGenerationRequest) {
  try {
    convertVideoRequestToNative({ request });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    const { message, code, param } = error as InvalidRequestError;
    return { message, code, param };
  }
  throw new Error("expected a refusal");
}

describe("convertVideoRequestToNative", () => {
  it("applies the seed's defaults, with audio on for the fast models", () => {
    const submission = convertVideoRequestToNative({
      request: { model: "vid-b-3.0-fast-generate-001", prompt: "A lighthouse at dusk", generateAudio: false },
    });
    expect(submission.body).toEqual({
      instances: [{ prompt: "A lighthouse at dusk" }],
      parameters: {
        aspectRatio: "16:9",
        durationSeconds: 4,
        resolution: "1080p",
        personGeneration: "allow_all",
        sampleCount: 1,
        generateAudio: true,
      },
    });
    expect(submission.billing).toEqual({ seconds: 4, samples: 1 });
  });

  it("sends first and last frame inline for 3.1 and every field the client set; bills per sample", () => {
    const submission = convertVideoRequestToNative({
      request: {
        model: "vid-b-3.1-fast-generate-preview",
        prompt: "The flower blooms slowly",
        image: "https://example.com/frames/bud.jpg",
        lastFrame: `data:image/png;base64,${pngBase64}`,
        durationSeconds: 8,
        aspectRatio: "9:16",
        resolution: "720p",
        fps: 24,
        personGeneration: "dont_allow",
        addWatermark: false,
        seed: 42,
        sampleCount: 3,
      },
      frames: { image: jpeg, lastFrame: png },
    });
    expect(submission.body).toEqual({
      instances: [
        {
          prompt: "The flower blooms slowly",
          image: { bytesBase64Encoded: "/9j/4A==", mimeType: "image/jpeg" },
          lastFrame: { bytesBase64Encoded: pngBase64, mimeType: "image/png" },
        },
      ],
      parameters: {
        aspectRatio: "9:16",
        durationSeconds: 8,
        resolution: "720p",
        personGeneration: "dont_allow",
        sampleCount: 3,
        generateAudio: true,
        fps: 24,
        addWatermark: false,
        seed: 42,
      },
    });
    expect(submission.billing).toEqual({ seconds: 8, samples: 3 });
  });

  it("maps the generic duration and aspect_ratio where the family fields are absent; a frame allows adults", () => {
    const submission = convertVideoRequestToNative({
      request: {
        model: "vid-b-3.0-fast-generate-001",
        prompt: "x",
        duration: 6,
        aspect_ratio: "9:16",
        image: pngBase64,
      },
      frames: { image: png },
    });
    expect(submission.body.parameters).toMatchObject({
      durationSeconds: 6,
      aspectRatio: "9:16",
      personGeneration: "allow_adult",
    });
    expect(submission.body.instances[0]?.image).toEqual({ bytesBase64Encoded: pngBase64, mimeType: "image/png" });
    const own = convertVideoRequestToNative({
      request: { model: "vid-b-3.0-fast-generate-001", prompt: "x", duration: 5, durationSeconds: 8 },
    });
    expect(own.billing.seconds).toBe(8);
  });

  it.each([
    [
      "a last frame on 3.0",
      { lastFrame: pngBase64, image: pngBase64 },
      "lastFrame",
      "absent (only vid-b-3.1-fast-generate-preview takes a last frame)",
    ],
    ["generic duration 5", { duration: 5 }, "duration", "one of 4, 6, 8"],
    ["generic 1:1", { aspect_ratio: "1:1" }, "aspect_ratio", "one of 16:9, 9:16"],
    ["480p", { resolution: "480p" }, "resolution", "one of 720p, 1080p"],
    ["4k", { resolution: "4k" }, "resolution", "one of 720p, 1080p"],
    ["five samples", { sampleCount: 5 }, "sampleCount", "an integer from 1 to 4"],
    ["zero samples", { sampleCount: 0 }, "sampleCount", "an integer from 1 to 4"],
  ])("refuses %s", (_name, fields, param, allowed) => {
    expect(refusal({ model: "vid-b-3.0-fast-generate-001", prompt: "x", ...fields } as VideoGenerationRequest)).toEqual(
      {
        message: `${param} must be ${allowed} for vid-b-3.0-fast-generate-001.`,
        code: "invalid_parameter",
        param,
      },
    );
  });

  it("refuses a missing prompt and a last frame without a first", () => {
    expect(refusal({ model: "vid-b-3.1-fast-generate-preview" })).toEqual({
      message: "prompt is required for vid-b-3.1-fast-generate-preview.",
      code: "invalid_request",
      param: "prompt",
    });
    expect(refusal({ model: "vid-b-3.1-fast-generate-preview", prompt: "x", lastFrame: pngBase64 }).message).toBe(
      "lastFrame needs image (the first frame) for vid-b-3.1-fast-generate-preview.",
    );
  });
});
