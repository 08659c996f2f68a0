import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ArkTaskAnswer } from "./ark-video-task-types.js";
import { mapArkVideoTask } from "./map-ark-video-task.js";

function fixture(name: string): ArkTaskAnswer {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), "utf8")) as ArkTaskAnswer;
}

describe("mapArkVideoTask", () => {
  it("reads a succeeded task: the video, the seconds and the completion tokens", () => {
    expect(mapArkVideoTask(fixture("video-task-succeeded"))).toEqual({
      status: "completed",
      upstreamStatus: "SUCCEEDED",
      progress: 100,
      resultUrl: "https://ark-content-generation-cn-beijing.tos-cn-beijing.volces.com/xxx.mp4",
      seconds: 5,
      completionTokens: 108900,
      completedAt: 1743414673,
      output: { outputVideoDuration: 5 },
      usage: { videoCount: 1, resolution: 720 },
    });
  });

  it("reads a failed task with the provider's reason", () => {
    expect(mapArkVideoTask(fixture("video-task-failed"))).toEqual({
      status: "failed",
      upstreamStatus: "FAILED",
      completedAt: 1743414633,
      error: {
        code: "OutputVideoSensitiveContentDetected",
        message: "The request failed because the output video may contain sensitive information.",
      },
    });
  });

  it("reads a running task as in_progress", () => {
    expect(mapArkVideoTask(fixture("video-task-running"))).toEqual({
      status: "in_progress",
      upstreamStatus: "RUNNING",
    });
  });

  it.each([
    ["queued", "queued", "PENDING", undefined],
    ["running", "in_progress", "RUNNING", undefined],
    ["cancelled", "failed", "CANCELED", { code: "cancelled", message: "The task was cancelled at the provider." }],
    ["expired", "failed", "FAILED", { code: "expired", message: "The task expired before the provider finished it." }],
    ["paused", "in_progress", "RUNNING", undefined],
  ])("maps %s to %s (%s)", (status, state, upstreamStatus, error) => {
    const snapshot = mapArkVideoTask({ id: "cgt-1", status });
    expect(snapshot.status).toBe(state);
    expect(snapshot.upstreamStatus).toBe(upstreamStatus);
    expect(snapshot.error).toEqual(error);
  });

  it("fails a succeeded task that carries no video, so it is refunded", () => {
    expect(mapArkVideoTask({ id: "cgt-1", status: "succeeded", content: { video_url: "" } })).toMatchObject({
      status: "failed",
      error: { code: "empty_response" },
    });
  });

  it("derives the seconds from the frames when the duration is absent", () => {
    expect(
      mapArkVideoTask({
        id: "cgt-1",
        status: "succeeded",
        content: { video_url: "https://v" },
        frames: 121,
        framespersecond: 24,
      }).seconds,
    ).toBe(5);
  });
});
