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
      state: "completed",
      upstreamStatus: "succeeded",
      progress: 100,
      resultUrl: "https://ark-content-generation-cn-beijing.tos-cn-beijing.volces.com/xxx.mp4",
      samples: 1,
      billedSeconds: 5,
      completionTokens: 108900,
      output: {
        task_id: "cgt-20250331175019-68d9t",
        task_status: "succeeded",
        video_url: "https://ark-content-generation-cn-beijing.tos-cn-beijing.volces.com/xxx.mp4",
        last_frame_url: "https://ark-content-generation-cn-beijing.tos-cn-beijing.volces.com/xxx.png",
        resolution: "720p",
        ratio: "16:9",
        duration: 5,
        framespersecond: 24,
        seed: 10,
        generate_audio: true,
      },
      usage: { completion_tokens: 108900, total_tokens: 108900 },
    });
  });

  it("reads a failed task with the provider's reason", () => {
    expect(mapArkVideoTask(fixture("video-task-failed"))).toEqual({
      state: "failed",
      upstreamStatus: "failed",
      error: {
        code: "OutputVideoSensitiveContentDetected",
        message: "The request failed because the output video may contain sensitive information.",
      },
      output: { task_id: "cgt-20250331175019-fail1", task_status: "failed" },
    });
  });

  it("reads a running task as in_progress", () => {
    expect(mapArkVideoTask(fixture("video-task-running"))).toMatchObject({
      state: "in_progress",
      upstreamStatus: "running",
    });
  });

  it.each([
    ["queued", "queued", undefined],
    ["running", "in_progress", undefined],
    ["cancelled", "failed", { code: "cancelled", message: "The task was cancelled at the provider." }],
    ["expired", "failed", { code: "expired", message: "The task expired before the provider finished it." }],
    ["paused", "in_progress", undefined],
  ])("maps %s to %s", (status, state, error) => {
    const observation = mapArkVideoTask({ id: "cgt-1", status });
    expect(observation.state).toBe(state);
    expect(observation.error).toEqual(error);
  });

  it("fails a succeeded task that carries no video, so it is refunded", () => {
    expect(mapArkVideoTask({ id: "cgt-1", status: "succeeded", content: { video_url: "" } })).toMatchObject({
      state: "failed",
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
      }).billedSeconds,
    ).toBe(5);
  });
});
