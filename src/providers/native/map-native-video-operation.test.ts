import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../errors/upstream-error.js";
import { buildNativeFileDownloadUrl } from "./build-native-file-download-url.js";
import { mapNativeVideoOperation } from "./map-native-video-operation.js";
import type { NativeVideoOperation } from "./native-video-operation-types.js";

function fixture(name: string): NativeVideoOperation {
  return JSON.parse(
    readFileSync(new URL(`./__fixtures__/video/${name}.json`, import.meta.url), "utf8"),
  ) as NativeVideoOperation;
}

describe("mapNativeVideoOperation", () => {
  it("reads a running operation", () => {
    expect(mapNativeVideoOperation(fixture("operation-running"), 8)).toEqual({
      state: "in_progress",
      upstreamStatus: "RUNNING",
      output: { task_id: "models/veo-3.1-fast-generate-preview/operations/b2c7q4x9k1", task_status: "RUNNING" },
    });
  });

  it("reads a finished operation: the first file, billed per returned sample", () => {
    expect(mapNativeVideoOperation(fixture("operation-done"), 8)).toEqual({
      state: "completed",
      upstreamStatus: "SUCCEEDED",
      progress: 100,
      resultUrl: "https://generativelanguage.googleapis.com/v1beta/files/3xk9p2m7q1:download?alt=media",
      samples: 2,
      billedSeconds: 8,
      output: { task_id: "models/veo-3.1-fast-generate-preview/operations/b2c7q4x9k1", task_status: "SUCCEEDED" },
      usage: { duration: 8, video_count: 2 },
    });
  });

  it("fails a safety-filtered operation with the filter's reason", () => {
    expect(mapNativeVideoOperation(fixture("operation-filtered"), 4)).toEqual({
      state: "failed",
      upstreamStatus: "FILTERED",
      output: { task_id: "models/veo-3.0-fast-generate-001/operations/f1lt3r3d00", task_status: "FILTERED" },
      error: {
        code: "content_filtered",
        message:
          "We encountered an issue with the audio for your prompt. You have not been charged. Please try rephrasing your prompt.",
      },
    });
    expect(
      mapNativeVideoOperation({ done: true, response: { generateVideoResponse: { raiMediaFilteredCount: 2 } } }, 4)
        .error,
    ).toEqual({
      code: "content_filtered",
      message: "The provider returned no video (2 filtered by its safety filter).",
    });
  });

  it("fails an operation that ended with an error", () => {
    expect(mapNativeVideoOperation(fixture("operation-error"), 4)).toMatchObject({
      state: "failed",
      upstreamStatus: "FAILED",
      error: { code: "INTERNAL", message: "Internal error encountered while generating the video." },
    });
  });
});

describe("buildNativeFileDownloadUrl", () => {
  it("rebuilds the download on the channel's own base URL, whatever host the answer named", () => {
    expect(
      buildNativeFileDownloadUrl(
        "http://127.0.0.1:4100/",
        "https://elsewhere.example/v1beta/files/3xk9p2m7q1:download?alt=media",
      ),
    ).toBe("http://127.0.0.1:4100/v1beta/files/3xk9p2m7q1:download?alt=media");
    expect(() => buildNativeFileDownloadUrl("http://127.0.0.1:4100", "https://x.example/video.mp4")).toThrow(
      UpstreamError,
    );
  });
});
