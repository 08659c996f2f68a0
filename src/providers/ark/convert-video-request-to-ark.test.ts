import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import { convertVideoRequestToArk } from "./convert-video-request-to-ark.js";

const upstream = "doubao-seedance-upstream";
const frame = "https://example.com/frames/fox.jpg";

function vidE(model: string, text: string, extra: Partial<VideoGenerationRequest> = {}, metadata = {}) {
  return { model, ...extra, metadata: { content: [{ type: "text", text }], ...metadata } } as VideoGenerationRequest;
}

function refusal(request: VideoGenerationRequest): { message: string; code: string; param: string | undefined } {
  try {
    convertVideoRequestToArk(request, upstream);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    const { message, code, param } = error as InvalidRequestError;
    return { message, code, param };
  }
  throw new Error("expected a refusal");
}

describe("convertVideoRequestToArk: vid-e", () => {
  it("sends the 1.5 pro content as written, with audio, the last frame and the flags only in the text", () => {
    const request = {
      model: "vid-e-1-5-pro-251215",
      prompt: "ignored for vid-e",
      metadata: {
        content: [
          { type: "text", text: "A fox running through fresh snow --rs 720p --ratio 16:9 --dur 6 --seed 7 --wm false" },
          { type: "image_url", image_url: { url: frame }, role: "first_frame" },
        ],
        return_last_frame: true,
        callback_url: "https://client.example.com/hooks/video",
      },
    } as VideoGenerationRequest;
    const submission = convertVideoRequestToArk(request, upstream);
    expect(submission.body).toEqual({
      model: upstream,
      content: [
        { type: "text", text: "A fox running through fresh snow --rs 720p --ratio 16:9 --dur 6 --seed 7 --wm false" },
        { type: "image_url", image_url: { url: frame }, role: "first_frame" },
      ],
      return_last_frame: true,
      generate_audio: true,
    });
    // 720p, 6 s at 24 fps plus the first frame: 1280×720×145/1024.
    expect(submission.billing).toEqual({ seconds: 6, samples: 1, estimatedCompletionTokens: 130500 });
  });

  it("asks silence for the noAudio variant and maps the generic fields where the text has no flag", () => {
    const submission = convertVideoRequestToArk(
      vidE("vid-e-1-5-pro-251215-noAudio", "A quiet lake", {
        duration: 8,
        resolution: "480p",
        aspect_ratio: "9:16",
        image: frame,
      }),
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      content: [
        { type: "text", text: "A quiet lake" },
        { type: "image_url", image_url: { url: frame }, role: "first_frame" },
      ],
      resolution: "480p",
      ratio: "9:16",
      duration: 8,
      generate_audio: false,
    });
    expect(submission.billing.seconds).toBe(8);
  });

  it("lets the flags win over the generic fields", () => {
    const submission = convertVideoRequestToArk(
      vidE("vid-e-1-0-pro-250528", "A kite --rs 480p --dur 3 --ratio 1:1", { resolution: "1080p", duration: 10 }),
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      content: [{ type: "text", text: "A kite --rs 480p --dur 3 --ratio 1:1" }],
    });
    expect(submission.billing).toEqual({
      seconds: 3,
      samples: 1,
      estimatedCompletionTokens: Math.ceil((854 * 480 * 73) / 1024),
    });
  });

  it("reserves by --frames (1.5 pro), which wins over the duration", () => {
    const submission = convertVideoRequestToArk(vidE("vid-e-1-5-pro-251215", "Waves --frames 121 --dur 12"), upstream);
    expect(submission.billing).toEqual({ seconds: 5, samples: 1, estimatedCompletionTokens: 108900 });
  });

  it("defaults to 5 s at the model's default resolution", () => {
    expect(convertVideoRequestToArk(vidE("vid-e-1-0-pro-250528", "A kite"), upstream).billing).toEqual({
      seconds: 5,
      samples: 1,
      estimatedCompletionTokens: Math.ceil((1920 * 1080 * 121) / 1024),
    });
  });

  it("takes the lite flags (--cf) and lite i2v reference images", () => {
    const body = convertVideoRequestToArk(
      vidE("vid-e-1-0-lite-t2v-250428", "A dancer --cf true --fps 24 --seed 4294967295"),
      upstream,
    );
    expect(body.body.content).toHaveLength(1);
    const request = {
      model: "vid-e-1-0-lite-i2v-250428",
      metadata: {
        content: [
          { type: "text", text: "The two in one room --cf false" },
          { type: "image_url", image_url: { url: "https://example.com/a.png" }, role: "reference_image" },
          { type: "image_url", image_url: { url: "https://example.com/b.png" }, role: "reference_image" },
        ],
      },
    } as VideoGenerationRequest;
    expect(convertVideoRequestToArk(request, upstream).body.content).toHaveLength(3);
  });

  it.each([
    ["--rs 1080p on 1.5 pro", vidE("vid-e-1-5-pro-251215", "x --rs 1080p"), "--rs", "one of 480p, 720p"],
    ["--resolution 4k", vidE("vid-e-1-0-pro-250528", "x --resolution 4k"), "--resolution", "one of 480p, 720p, 1080p"],
    ["generic 4k", vidE("vid-e-1-0-pro-250528", "x", { resolution: "4k" }), "resolution", "one of 480p, 720p, 1080p"],
    [
      "--ratio 21:9",
      vidE("vid-e-1-0-pro-250528", "x --ratio 21:9"),
      "--ratio",
      "one of 16:9, 9:16, 1:1, 4:3, 3:4, adaptive",
    ],
    [
      "adaptive on lite t2v",
      vidE("vid-e-1-0-lite-t2v-250428", "x --ratio adaptive"),
      "--ratio",
      "one of 16:9, 9:16, 1:1, 4:3, 3:4",
    ],
    [
      "generic adaptive on lite t2v",
      vidE("vid-e-1-0-lite-t2v-250428", "x", { aspect_ratio: "adaptive" }),
      "aspect_ratio",
      "one of 16:9, 9:16, 1:1, 4:3, 3:4",
    ],
    ["--dur 3 on 1.5 pro", vidE("vid-e-1-5-pro-251215", "x --dur 3"), "--dur", "an integer from 4 to 12"],
    ["--dur 13 on 1.5 pro", vidE("vid-e-1-5-pro-251215", "x --dur 13"), "--dur", "an integer from 4 to 12"],
    [
      "--duration 1 on lite",
      vidE("vid-e-1-0-lite-t2v-250428", "x --duration 1"),
      "--duration",
      "an integer from 2 to 12",
    ],
    ["--dur 5.5", vidE("vid-e-1-0-pro-250528", "x --dur 5.5"), "--dur", "an integer from 2 to 12"],
    ["generic duration 20", vidE("vid-e-1-5-pro-251215", "x", { duration: 20 }), "duration", "an integer from 4 to 12"],
    ["--frames 28", vidE("vid-e-1-5-pro-251215", "x --frames 28"), "--frames", "an integer from 29 to 289"],
    ["--frames 293", vidE("vid-e-1-5-pro-251215", "x --frames 293"), "--frames", "an integer from 29 to 289"],
    [
      "--frames 30",
      vidE("vid-e-1-5-pro-251215", "x --frames 30"),
      "--frames",
      "an integer from 29 to 289 of the form 25+4n",
    ],
    [
      "--frames on lite",
      vidE("vid-e-1-0-lite-t2v-250428", "x --frames 29"),
      "--frames",
      "absent (only vid-e-1-5-pro models take it)",
    ],
    ["--fps 0", vidE("vid-e-1-0-pro-250528", "x --fps 0"), "--fps", "an integer from 1 to 60"],
    ["--seed -2", vidE("vid-e-1-0-pro-250528", "x --seed -2"), "--seed", "an integer from -1 to 4294967295"],
    ["--seed 2^32", vidE("vid-e-1-0-pro-250528", "x --seed 4294967296"), "--seed", "an integer from -1 to 4294967295"],
    ["--wm yes", vidE("vid-e-1-0-pro-250528", "x --wm yes"), "--wm", "true or false"],
    ["--watermark 1", vidE("vid-e-1-0-pro-250528", "x --watermark 1"), "--watermark", "true or false"],
    ["--cf on 1.5 pro", vidE("vid-e-1-5-pro-251215", "x --cf true"), "--cf", "absent (only the lite models take it)"],
    [
      "--camerafixed on 1.0 pro",
      vidE("vid-e-1-0-pro-250528", "x --camerafixed true"),
      "--camerafixed",
      "absent (only the lite models take it)",
    ],
    ["--cf maybe on lite", vidE("vid-e-1-0-lite-t2v-250428", "x --cf maybe"), "--cf", "true or false"],
    [
      "return_last_frame on 1.0 pro",
      vidE("vid-e-1-0-pro-250528", "x", {}, { return_last_frame: true }),
      "metadata.return_last_frame",
      "absent (only vid-e-1-5-pro models return the last frame)",
    ],
  ])("refuses %s with invalid_parameter naming the field and the allowed values", (_name, request, param, allowed) => {
    expect(refusal(request)).toEqual({
      message: `${param} must be ${allowed} for ${request.model}.`,
      code: "invalid_parameter",
      param,
    });
  });

  it("refuses a missing content, a content without text or with only flags, and images the model cannot take", () => {
    expect(refusal({ model: "vid-e-1-5-pro-251215", prompt: "x" } as VideoGenerationRequest)).toEqual({
      message: "metadata.content is required for vid-e-1-5-pro-251215.",
      code: "invalid_request",
      param: "metadata.content",
    });
    expect(
      refusal({
        model: "vid-e-1-5-pro-251215",
        metadata: { content: [{ type: "image_url", image_url: { url: frame } }] },
      } as VideoGenerationRequest).message,
    ).toBe("metadata.content must contain one {type: text, text} item with the prompt for vid-e-1-5-pro-251215.");
    expect(refusal(vidE("vid-e-1-5-pro-251215", "--rs 720p")).message).toBe(
      "metadata.content[0].text must carry a prompt.",
    );
    expect(refusal(vidE("vid-e-1-0-lite-t2v-250428", "x", { image: frame })).message).toBe(
      "vid-e-1-0-lite-t2v-250428 is text-to-video only: metadata.content takes no images.",
    );
    expect(refusal(vidE("vid-e-1-0-lite-i2v-250428", "x")).message).toBe(
      "vid-e-1-0-lite-i2v-250428 needs an image item in metadata.content.",
    );
    const withImages = (model: string, ...roles: string[]) =>
      ({
        model,
        metadata: {
          content: [
            { type: "text", text: "x" },
            ...roles.map((role) => ({ type: "image_url", image_url: { url: frame }, role })),
          ],
        },
      }) as VideoGenerationRequest;
    expect(refusal(withImages("vid-e-1-5-pro-251215", "reference_image"))).toEqual({
      message: "metadata.content[].role must be one of first_frame, last_frame for vid-e-1-5-pro-251215.",
      code: "invalid_parameter",
      param: "metadata.content[].role",
    });
    expect(refusal(withImages("vid-e-1-5-pro-251215", "last_frame")).message).toBe(
      "a last_frame image needs a first_frame image for vid-e-1-5-pro-251215.",
    );
    expect(refusal(withImages("vid-e-1-0-lite-i2v-250428", "first_frame", "reference_image")).message).toBe(
      "reference_image items cannot be combined with first_frame or last_frame items for vid-e-1-0-lite-i2v-250428.",
    );
    expect(refusal(withImages("vid-e-1-0-lite-i2v-250428", ...Array(5).fill("reference_image"))).message).toBe(
      "metadata.content[].role must be reference_image at most 4 times for vid-e-1-0-lite-i2v-250428.",
    );
    expect(
      convertVideoRequestToArk(withImages("vid-e-1-5-pro-251215", "first_frame", "last_frame"), upstream).body.content,
    ).toHaveLength(3);
    expect(refusal(vidE("vid-e-1-5-pro-251215", "x", {}, { duration: 12 })).message).toBe(
      "metadata.duration is not used by vid-e-1-5-pro-251215: give it as a flag in the text of metadata.content.",
    );
  });
});

describe("convertVideoRequestToArk: vid-d", () => {
  it("builds content from the generic prompt and image and maps the generic fields to the strict top-level ones", () => {
    const submission = convertVideoRequestToArk(
      {
        model: "vid-d-2-0",
        prompt: "A red kite",
        image: frame,
        duration: 10,
        resolution: "1080p",
        aspect_ratio: "21:9",
      },
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      content: [
        { type: "text", text: "A red kite" },
        { type: "image_url", image_url: { url: frame }, role: "first_frame" },
      ],
      resolution: "1080p",
      ratio: "21:9",
      duration: 10,
    });
    expect(submission.billing).toEqual({
      seconds: 10,
      samples: 1,
      estimatedCompletionTokens: Math.ceil((1920 * 1080 * 241) / 1024),
    });
  });

  it("passes multi-modal content, asset:// references, unknown metadata keys and unknown fields through unchanged", () => {
    const content = [
      { type: "text", text: "The character from image 1 dances to audio 1" },
      { type: "image_url", image_url: { url: "asset://asset-20260101-abc" }, role: "reference_image" },
      { type: "video_url", video_url: { url: "https://example.com/ref.mp4" }, role: "reference_video" },
      { type: "audio_url", audio_url: { url: "asset://asset-20260101-song" }, role: "reference_audio" },
    ];
    const submission = convertVideoRequestToArk(
      {
        model: "vid-d-2-0-fast",
        metadata: { content, duration: -1, generate_audio: true, callback_url: "https://client.example.com/hook" },
        service_tier: "flex",
      } as VideoGenerationRequest,
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      content,
      service_tier: "flex",
      duration: -1,
      generate_audio: true,
    });
    // -1 lets the provider choose: reserved at the longest, 15 s.
    expect(submission.billing.seconds).toBe(15);
  });

  it.each([
    [
      "1080p on the fast model",
      { model: "vid-d-2-0-fast", prompt: "x", resolution: "1080p" },
      "resolution",
      "one of 480p, 720p",
    ],
    [
      "metadata 1080p on the fast model",
      { model: "vid-d-2-0-fast", prompt: "x", metadata: { resolution: "1080p" } },
      "metadata.resolution",
      "one of 480p, 720p",
    ],
    [
      "a --rs 1080p flag on the fast model",
      { model: "vid-d-2-0-fast", prompt: "x --rs 1080p" },
      "--rs",
      "one of 480p, 720p",
    ],
    ["duration 3", { model: "vid-d-2-0", prompt: "x", duration: 3 }, "duration", "an integer from 4 to 15, or -1"],
    [
      "metadata duration 16",
      { model: "vid-d-2-0", prompt: "x", metadata: { duration: 16 } },
      "metadata.duration",
      "an integer from 4 to 15, or -1",
    ],
    [
      "ratio 2:1",
      { model: "vid-d-2-0", prompt: "x", metadata: { ratio: "2:1" } },
      "metadata.ratio",
      "one of 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive",
    ],
  ])("refuses %s", (_name, request, param, allowed) => {
    expect(refusal(request as VideoGenerationRequest)).toEqual({
      message: `${param} must be ${allowed} for ${request.model}.`,
      code: "invalid_parameter",
      param,
    });
  });

  it("needs a prompt or content", () => {
    expect(refusal({ model: "vid-d-2-0" })).toEqual({
      message: "prompt (or metadata.content) is required for vid-d-2-0.",
      code: "invalid_request",
      param: "prompt",
    });
  });
});
