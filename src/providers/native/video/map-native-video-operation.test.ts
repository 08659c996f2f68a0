import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import { buildNativeFileDownloadPath } from "./build-native-file-download-path.js";
import { listNativeVideoFiles } from "./list-native-video-files.js";
import { mapNativeVideoOperation } from "./map-native-video-operation.js";
import type { NativeVideoOperation } from "./native-video-operation-types.js";

function fixture(name: string): NativeVideoOperation {
  return JSON.parse(
    readFileSync(new URL(`../__fixtures__/video/${name}.json`, import.meta.url), "utf8"),
  ) as NativeVideoOperation;
}

describe("mapNativeVideoOperation", () => {
  it("reads a running operation", () => {
    expect(mapNativeVideoOperation(fixture("operation-running"), 8)).toEqual({
      status: "in_progress",
      upstreamStatus: "RUNNING",
    });
  });

  it("reads a finished operation billed per returned sample, without showing the keyed file URIs", () => {
    const snapshot = mapNativeVideoOperation(fixture("operation-done"), 8);
    expect(snapshot).toEqual({
      status: "completed",
      upstreamStatus: "SUCCEEDED",
      progress: 100,
      seconds: 16,
      usage: { videoCount: 2 },
      output: { outputVideoDuration: 8 },
    });
    expect(listNativeVideoFiles(fixture("operation-done"))).toEqual([
      "https://generativelanguage.googleapis.com/v1beta/files/3xk9p2m7q1:download?alt=media",
      "https://generativelanguage.googleapis.com/v1beta/files/8hw2n5c0z4:download?alt=media",
    ]);
  });

  it("fails a safety-filtered operation with the filter's reason", () => {
    expect(mapNativeVideoOperation(fixture("operation-filtered"), 4)).toEqual({
      status: "failed",
      upstreamStatus: "FAILED",
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
    expect(mapNativeVideoOperation(fixture("operation-error"), 4)).toEqual({
      status: "failed",
      upstreamStatus: "FAILED",
      error: { code: "INTERNAL", message: "Internal error encountered while generating the video." },
    });
  });
});

describe("buildNativeFileDownloadPath", () => {
  it("keeps only the file id, so the download goes to the channel's own host whatever host the answer named", () => {
    expect(buildNativeFileDownloadPath("https://elsewhere.example/v1beta/files/3xk9p2m7q1:download?alt=media")).toBe(
      "/v1beta/files/3xk9p2m7q1:download?alt=media",
    );
    expect(() => buildNativeFileDownloadPath("https://x.example/video.mp4")).toThrow(UpstreamFailure);
  });
});
