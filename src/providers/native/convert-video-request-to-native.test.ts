import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/invalid-request-error.js";
import type { FetchMedia } from "../../net/create-safe-fetcher.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import { rejectionOf } from "../../../test/support/rejection-of.js";
import { convertVideoRequestToNative } from "./convert-video-request-to-native.js";

const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const noFetch: FetchMedia = () => Promise.reject(new Error("no fetch expected"));
const fetched: string[] = [];
const fetchJpeg: FetchMedia = async (url) => {
  fetched.push(url);
  return { mimeType: "image/jpeg", data: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) };
};

async function refusal(request: VideoGenerationRequest) {
  const error = await rejectionOf(convertVideoRequestToNative({ request, fetchMedia: noFetch }), InvalidRequestError);
  return { message: error.message, code: error.code, param: error.param };
}

describe("convertVideoRequestToNative", () => {
  it("applies the seed's defaults, with audio on for the fast models", async () => {
    const submission = await convertVideoRequestToNative({
      request: { model: "vid-b-3.0-fast-generate-001", prompt: "A lighthouse at dusk", generateAudio: false },
      fetchMedia: noFetch,
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

  it("sends first and last frame inline for 3.1 and every field the client set; bills per sample", async () => {
    fetched.length = 0;
    const submission = await convertVideoRequestToNative({
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
      fetchMedia: fetchJpeg,
    });
    expect(fetched).toEqual(["https://example.com/frames/bud.jpg"]);
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

  it("maps the generic duration and aspect_ratio where the family fields are absent; raw base64 frames allow adults", async () => {
    const submission = await convertVideoRequestToNative({
      request: {
        model: "vid-b-3.0-fast-generate-001",
        prompt: "x",
        duration: 6,
        aspect_ratio: "9:16",
        image: pngBase64,
      },
      fetchMedia: noFetch,
    });
    expect(submission.body.parameters).toMatchObject({
      durationSeconds: 6,
      aspectRatio: "9:16",
      personGeneration: "allow_adult",
    });
    expect(submission.body.instances[0]?.image).toEqual({ bytesBase64Encoded: pngBase64, mimeType: "image/png" });
    const own = await convertVideoRequestToNative({
      request: { model: "vid-b-3.0-fast-generate-001", prompt: "x", duration: 5, durationSeconds: 8 },
      fetchMedia: noFetch,
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
  ])("refuses %s", async (_name, fields, param, allowed) => {
    expect(
      await refusal({ model: "vid-b-3.0-fast-generate-001", prompt: "x", ...fields } as VideoGenerationRequest),
    ).toEqual({
      message: `${param} must be ${allowed} for vid-b-3.0-fast-generate-001.`,
      code: "invalid_parameter",
      param,
    });
  });

  it("refuses a missing prompt, a last frame without a first, and a frame that is no image", async () => {
    expect(await refusal({ model: "vid-b-3.1-fast-generate-preview" })).toEqual({
      message: "prompt is required for vid-b-3.1-fast-generate-preview.",
      code: "invalid_request",
      param: "prompt",
    });
    expect(
      (await refusal({ model: "vid-b-3.1-fast-generate-preview", prompt: "x", lastFrame: pngBase64 })).message,
    ).toBe("lastFrame needs image (the first frame) for vid-b-3.1-fast-generate-preview.");
    expect(
      (await refusal({ model: "vid-b-3.1-fast-generate-preview", prompt: "x", image: "not an image" })).param,
    ).toBe("image");
    expect(
      (await refusal({ model: "vid-b-3.1-fast-generate-preview", prompt: "x", image: "data:text/plain;base64,aGk=" }))
        .message,
    ).toBe(
      "image has the unsupported type text/plain; allowed: image/png, image/jpeg, image/jpg, image/webp, image/heic, image/heif.",
    );
  });
});
