import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import { convertVideoRequestToDashScope } from "./convert-video-request-to-dashscope.js";
import type { DashScopeTaskAnswer } from "./dashscope-video-task-types.js";
import { mapDashScopeVideoTask } from "./map-dashscope-video-task.js";

const upstream = "wan-upstream";
const frame = "https://example.com/frames/cat.jpg";

function refusal(request: VideoGenerationRequest): { message: string; code: string; param: string | undefined } {
  try {
    convertVideoRequestToDashScope(request, upstream);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    const { message, code, param } = error as InvalidRequestError;
    return { message, code, param };
  }
  throw new Error("expected a refusal");
}

function fixture(name: string): DashScopeTaskAnswer {
  return JSON.parse(
    readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), "utf8"),
  ) as DashScopeTaskAnswer;
}

describe("convertVideoRequestToDashScope: vid-c2.5", () => {
  it("maps the top-level form of t2v onto input and parameters, with the seed's defaults", () => {
    const submission = convertVideoRequestToDashScope(
      {
        model: "vid-c2.5-t2v-preview",
        prompt: "A kitten chasing a ribbon",
        duration: 10,
        resolution: "1080p",
        size: "1920*1080",
        smart_rewrite: true,
        generate_audio: true,
        audio_url: "https://example.com/track.mp3",
        seed: 2147483647,
      },
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      input: { prompt: "A kitten chasing a ribbon", audio_url: "https://example.com/track.mp3" },
      parameters: {
        resolution: "1080P",
        duration: 10,
        prompt_extend: true,
        watermark: false,
        seed: 2147483647,
        size: "1920*1080",
        audio: true,
      },
    });
    expect(submission.billing).toEqual({ seconds: 10, samples: 1 });
    expect(
      convertVideoRequestToDashScope({ model: "vid-c2.5-t2v-preview", prompt: "x" }, upstream).body.parameters,
    ).toEqual({ resolution: "720P", duration: 5, prompt_extend: false, watermark: false });
  });

  it("lets metadata.parameters win over the top level, for the body and for the reservation", () => {
    const submission = convertVideoRequestToDashScope(
      {
        model: "vid-c2.5-i2v-preview",
        prompt: "The cat turns its head and blinks",
        duration: 10,
        resolution: "480p",
        aspect_ratio: "9:16",
        seed: 1,
        image: "https://example.com/ignored.jpg",
        metadata: {
          input: { prompt: "The cat turns its head and blinks", img_url: frame },
          parameters: { resolution: "720P", duration: 5, ratio: "1:1", seed: 12345 },
        },
      },
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      input: { prompt: "The cat turns its head and blinks", img_url: frame },
      parameters: { resolution: "720P", ratio: "1:1", duration: 5, seed: 12345, prompt_extend: true, watermark: false },
    });
    expect(submission.billing.seconds).toBe(5);
  });

  it("takes the generic image as the i2v first frame and passes media through", () => {
    const media = [{ type: "reference_image" as const, url: "https://example.com/r.png" }];
    const submission = convertVideoRequestToDashScope(
      { model: "vid-c2.5-i2v-preview", prompt: "x", image: frame, metadata: { input: { prompt: "x", media } } },
      upstream,
    );
    expect(submission.body.input).toEqual({ prompt: "x", media, img_url: frame });
  });

  it.each([
    ["duration 3", { duration: 3 }, "duration", "one of 5, 10"],
    [
      "metadata duration 3 over a good top level",
      { duration: 5, metadata: { parameters: { duration: 3 } } },
      "metadata.parameters.duration",
      "one of 5, 10",
    ],
    ["4k", { resolution: "4k" }, "resolution", "one of 480p, 720p, 1080p"],
    ["seed over 2^31-1", { seed: 2147483648 }, "seed", "an integer from 0 to 2147483647"],
    [
      "metadata seed -1",
      { metadata: { parameters: { seed: -1 } } },
      "metadata.parameters.seed",
      "an integer from 0 to 2147483647",
    ],
    ["an http audio_url", { audio_url: "http://example.com/a.mp3" }, "audio_url", "an HTTPS URL"],
    ["a size that is not W*H", { size: "1280x720" }, "size", "width*height, for example 1280*720"],
    ["ratio 21:9", { aspect_ratio: "21:9" }, "aspect_ratio", "one of 16:9, 9:16, 1:1, 4:3, 3:4"],
    ["an image on t2v", { image: frame }, "image", "absent (text-to-video only)"],
  ])("refuses %s on t2v", (_name, fields, param, allowed) => {
    expect(refusal({ model: "vid-c2.5-t2v-preview", prompt: "x", ...fields } as VideoGenerationRequest)).toEqual({
      message: `${param} must be ${allowed} for vid-c2.5-t2v-preview.`,
      code: "invalid_parameter",
      param,
    });
  });

  it("refuses size on i2v, a missing first frame, a missing or different metadata prompt", () => {
    expect(refusal({ model: "vid-c2.5-i2v-preview", prompt: "x", image: frame, size: "1280*720" }).message).toBe(
      "size must be absent (text-to-video only) for vid-c2.5-i2v-preview.",
    );
    expect(refusal({ model: "vid-c2.5-i2v-preview", prompt: "x" })).toEqual({
      message: "metadata.input.img_url (or image) is required for vid-c2.5-i2v-preview.",
      code: "invalid_request",
      param: "metadata.input.img_url",
    });
    expect(refusal({ model: "vid-c2.5-t2v-preview", prompt: "x", metadata: { input: {} } })).toEqual({
      message: "metadata.input.prompt is required for vid-c2.5-t2v-preview.",
      code: "invalid_request",
      param: "metadata.input.prompt",
    });
    expect(refusal({ model: "vid-c2.5-t2v-preview", prompt: "x", metadata: { input: { prompt: "y" } } }).message).toBe(
      "metadata.input.prompt must equal the top-level prompt for vid-c2.5-t2v-preview.",
    );
    expect(refusal({ model: "vid-c2.5-t2v-preview" }).message).toBe("prompt is required for vid-c2.5-t2v-preview.");
  });
});

describe("convertVideoRequestToDashScope: vid-c2.7-videoedit", () => {
  const edit = (fields: Partial<VideoGenerationRequest>, input: Record<string, unknown> = {}, parameters?: object) =>
    ({
      model: "vid-c2.7-videoedit",
      prompt: "Replace the car in video 1 with the bicycle from image 1",
      ...fields,
      metadata: {
        input: { prompt: "Replace the car in video 1 with the bicycle from image 1", ...input },
        ...(parameters === undefined ? {} : { parameters }),
      },
    }) as VideoGenerationRequest;
  const video = { type: "video" as const, url: "https://example.com/media/street.mp4" };
  const reference = { type: "reference_image" as const, url: "https://example.com/media/bicycle.png" };

  it("sends the media and parameters and reserves the longest source plus the output", () => {
    const submission = convertVideoRequestToDashScope(
      edit(
        { duration: 6 },
        { media: [video, reference] },
        { resolution: "1080P", prompt_extend: false, watermark: false },
      ),
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      input: { prompt: "Replace the car in video 1 with the bicycle from image 1", media: [video, reference] },
      parameters: { resolution: "1080P", prompt_extend: false, watermark: false, duration: 6 },
    });
    expect(submission.billing).toEqual({ seconds: 16, samples: 1 });
    expect(convertVideoRequestToDashScope(edit({}, { media: [video] }), upstream).billing.seconds).toBe(20);
  });

  it("accepts the older video_url as the source video", () => {
    const submission = convertVideoRequestToDashScope(
      edit({ video_url: video.url, resolution: "720p" }, { media: [reference] }),
      upstream,
    );
    expect(submission.body.input.media).toEqual([video, reference]);
    expect(submission.body.parameters).toEqual({ resolution: "720P" });
  });

  it("refuses what the edit model cannot take", () => {
    expect(refusal(edit({}, { media: [reference] }))).toEqual({
      message: "metadata.input.media must contain at least one item of type video for vid-c2.7-videoedit.",
      code: "invalid_request",
      param: "metadata.input.media",
    });
    expect(refusal(edit({}, { media: [video, reference, reference, reference, reference, reference] }))).toEqual({
      message:
        "metadata.input.media holds 5 reference images; vid-c2.7-videoedit takes at most 4 (items of type reference_image) beside the video.",
      code: "invalid_parameter",
      param: "metadata.input.media",
    });
    expect(refusal(edit({}, { media: [{ type: "video", url: "ftp://example.com/a.mp4" }] })).param).toBe(
      "metadata.input.media[0].url",
    );
    expect(refusal(edit({ resolution: "480p" }, { media: [video] }))).toEqual({
      message: "resolution must be one of 720p, 1080p for vid-c2.7-videoedit.",
      code: "invalid_parameter",
      param: "resolution",
    });
    expect(refusal(edit({}, { media: [video] }, { resolution: "480P" })).param).toBe("metadata.parameters.resolution");
    expect(refusal(edit({ duration: 11 }, { media: [video] })).message).toBe(
      "duration must be 0 (the source's length) or an integer from 2 to 10 for vid-c2.7-videoedit.",
    );
    expect(
      refusal({
        model: "vid-c2.7-videoedit",
        metadata: { input: { prompt: "x", media: [video] } },
      } as VideoGenerationRequest),
    ).toEqual({ message: "prompt is required for vid-c2.7-videoedit.", code: "invalid_request", param: "prompt" });
    expect(refusal({ model: "vid-c2.7-videoedit", prompt: "x", video_url: video.url })).toEqual({
      message: "metadata.input.prompt is required for vid-c2.7-videoedit.",
      code: "invalid_request",
      param: "metadata.input.prompt",
    });
  });
});

describe("convertVideoRequestToDashScope: vid-c2.7 t2v/i2v/r2v", () => {
  it("passes the metadata through and fills what it leaves out from the generic fields", () => {
    const submission = convertVideoRequestToDashScope(
      {
        model: "vid-c2.7-i2v-2026-04-25",
        prompt: "A lantern floats up",
        image: frame,
        resolution: "1080p",
        aspect_ratio: "9:16",
        duration: 8,
        metadata: {
          input: { negative_prompt: "blur" },
          parameters: { audio_setting: "auto", shot_type: "multi", duration: 12 },
        },
      },
      upstream,
    );
    expect(submission.body).toEqual({
      model: upstream,
      input: { negative_prompt: "blur", prompt: "A lantern floats up", media: [{ type: "first_frame", url: frame }] },
      parameters: { audio_setting: "auto", shot_type: "multi", duration: 12, resolution: "1080P", ratio: "9:16" },
    });
    expect(submission.billing.seconds).toBe(12);
    const media = [{ type: "reference_video", url: "https://example.com/r.mp4", reference_description: "the dancer" }];
    const r2v = convertVideoRequestToDashScope(
      { model: "vid-c2.7-r2v", prompt: "x", metadata: { input: { prompt: "x", media } } } as VideoGenerationRequest,
      upstream,
    );
    expect(r2v.body).toEqual({ model: upstream, input: { prompt: "x", media }, parameters: {} });
    expect(r2v.billing.seconds).toBe(5);
  });
});

describe("mapDashScopeVideoTask", () => {
  it("reads a succeeded task with the provider fields the wrapped answer shows", () => {
    expect(mapDashScopeVideoTask(fixture("video-task-succeeded"))).toEqual({
      status: "completed",
      upstreamStatus: "SUCCEEDED",
      progress: 100,
      resultUrl: "https://dashscope-result-bj.oss-cn-beijing.aliyuncs.com/1d/xx.mp4?Expires=1756368129",
      seconds: 10,
      output: {
        submitTime: "2026-08-27 15:59:59.299",
        scheduledTime: "2026-08-27 15:59:59.335",
        endTime: "2026-08-27 16:02:09.980",
        inputVideoDuration: 0,
        outputVideoDuration: 10,
      },
      usage: { videoCount: 1, resolution: 1080 },
    });
  });

  it("bills an edit task by input plus output seconds", () => {
    const snapshot = mapDashScopeVideoTask(fixture("video-edit-task-succeeded"));
    expect(snapshot.seconds).toBe(13.24);
    expect(snapshot.output).toMatchObject({ inputVideoDuration: 6.62, outputVideoDuration: 6.62 });
    const withoutTotal = fixture("video-edit-task-succeeded");
    delete withoutTotal.usage?.duration;
    expect(mapDashScopeVideoTask(withoutTotal).seconds).toBe(13.24);
  });

  it("reads a failed task with the provider's code and message", () => {
    expect(mapDashScopeVideoTask(fixture("video-task-failed"))).toEqual({
      status: "failed",
      upstreamStatus: "FAILED",
      error: { code: "DataInspectionFailed", message: "Input data may contain inappropriate content." },
      output: { submitTime: "2026-08-27 15:59:59.299" },
    });
  });

  it.each([
    ["PENDING", "queued", "PENDING", undefined],
    ["RUNNING", "in_progress", "RUNNING", undefined],
    ["CANCELED", "failed", "CANCELED", { code: "CANCELED", message: "The task was cancelled at the provider." }],
    [
      "UNKNOWN",
      "failed",
      "UNKNOWN",
      { code: "UNKNOWN", message: "The provider no longer knows the task (it is missing or expired)." },
    ],
    ["SUSPENDED", "in_progress", "RUNNING", undefined],
  ])("maps %s to %s", (taskStatus, status, upstreamStatus, error) => {
    const snapshot = mapDashScopeVideoTask({ output: { task_id: "t", task_status: taskStatus } });
    expect(snapshot.status).toBe(status);
    expect(snapshot.upstreamStatus).toBe(upstreamStatus);
    expect(snapshot.error).toEqual(error);
  });

  it("reads the submit answer as queued and fails a success without a video", () => {
    expect(mapDashScopeVideoTask(fixture("video-task-pending"))).toEqual({
      status: "queued",
      upstreamStatus: "PENDING",
    });
    expect(mapDashScopeVideoTask({ output: { task_id: "t", task_status: "SUCCEEDED" } }).error).toEqual({
      code: "empty_response",
      message: "The provider finished the task without a video.",
    });
  });
});
