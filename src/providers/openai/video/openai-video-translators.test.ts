import { describe, expect, it } from "vitest";
import { convertOpenaiVideoToSnapshot } from "./convert-openai-video-to-snapshot.js";
import { convertVideoSubmissionToOpenai } from "./convert-video-submission-to-openai.js";
import { mapOpenaiVideoStatus } from "./map-openai-video-status.js";

describe("OpenAI video translators", () => {
  it("maps each OpenAI status to ours and to the seed's upstream vocabulary", () => {
    expect(["queued", "in_progress", "completed", "failed", "surprise", undefined].map(mapOpenaiVideoStatus)).toEqual([
      { status: "queued", upstreamStatus: "PENDING" },
      { status: "in_progress", upstreamStatus: "RUNNING" },
      { status: "completed", upstreamStatus: "SUCCEEDED" },
      { status: "failed", upstreamStatus: "FAILED" },
      { status: "in_progress", upstreamStatus: "UNKNOWN" },
      { status: "in_progress", upstreamStatus: "UNKNOWN" },
    ]);
  });

  it("reads a completed video's seconds, resolution and end; a running one's progress; a failed one's error", () => {
    expect(
      convertOpenaiVideoToSnapshot({
        id: "video_1",
        status: "completed",
        progress: 100,
        seconds: "8",
        size: "1280x720",
        completed_at: 1700000100,
      }),
    ).toEqual({
      status: "completed",
      upstreamStatus: "SUCCEEDED",
      progress: 100,
      seconds: 8,
      output: { outputVideoDuration: 8 },
      usage: { videoCount: 1, resolution: 720 },
      completedAt: 1700000100,
    });
    expect(convertOpenaiVideoToSnapshot({ status: "in_progress", progress: 33.4, seconds: "4" })).toEqual({
      status: "in_progress",
      upstreamStatus: "RUNNING",
      progress: 33,
      seconds: 4,
    });
    expect(convertOpenaiVideoToSnapshot({ status: "failed", error: null })).toEqual({
      status: "failed",
      upstreamStatus: "FAILED",
      error: { code: "video_generation_failed", message: "The upstream reported the video as failed." },
    });
  });

  it("sends a submission as the multipart form of POST /v1/videos, the first frame as input_reference", async () => {
    const form = convertVideoSubmissionToOpenai(
      {
        model: "vid-a-2",
        prompt: "a boat",
        seconds: 8,
        size: "1280x720",
        images: [{ role: "first_frame", mimeType: "image/png", data: Buffer.from([1, 2, 3]), filename: "f.png" }],
        body: {},
      },
      "sora-2",
    );
    const entries = [...form.entries()].map(([name, value]) => [name, typeof value === "string" ? value : value.name]);
    expect(entries).toEqual([
      ["model", "sora-2"],
      ["prompt", "a boat"],
      ["seconds", "8"],
      ["size", "1280x720"],
      ["input_reference", "f.png"],
    ]);
    const file = form.get("input_reference") as File;
    expect([file.type, Buffer.from(await file.arrayBuffer())]).toEqual(["image/png", Buffer.from([1, 2, 3])]);
  });
});
