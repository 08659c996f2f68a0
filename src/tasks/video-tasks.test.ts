import { describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import type { TaskRecord } from "../store/tasks/task-record.js";
import { computePollDelay } from "./compute-poll-delay.js";
import { createTaskId } from "./create-task-id.js";
import { vidAFamily } from "./families/vid-a-family.js";
import { hashVideoRequest } from "./hash-video-request.js";
import { renderOpenaiVideo, renderVideoTaskPlain, renderVideoTaskSubmission } from "./render/render-video-task.js";

const refusingFetch = async () => {
  throw new Error("no fetch in this test");
};

const baseTask: TaskRecord = {
  id: "video_0123456789abcdef0123456789abcdef",
  userId: 1,
  tokenId: 2,
  tokenName: "t",
  channelId: 3,
  keyIndex: 0,
  model: "vid-a-2",
  upstreamModel: "sora-2",
  upstreamTaskId: "video_upstream_secret",
  status: "queued",
  upstreamStatus: "PENDING",
  progress: 0,
  reservationId: "req-1",
  reservedQuota: 200_000,
  unlimitedQuota: false,
  billingGroup: "default",
  quota: null,
  billedSeconds: null,
  resultUrl: null,
  errorCode: null,
  errorMessage: null,
  traceId: null,
  idempotencyKey: null,
  requestHash: null,
  requestBody: { prompt: "p", seconds: "4", size: "720x1280" },
  responseBody: null,
  createdTime: 1000,
  updatedTime: 1000,
  completedTime: null,
  nextPollAt: 0,
  pollFailures: 0,
  callbackState: null,
  callbackAttempts: 0,
  callbackNextAt: 0,
};

describe("video task pieces", () => {
  it("makes unguessable video_ ids", () => {
    const ids = new Set(Array.from({ length: 100 }, createTaskId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^video_[0-9a-f]{32}$/);
  });

  it("backs off per failure in a row, capped, never under Retry-After", () => {
    expect([0, 1, 2, 3, 10].map((failures) => computePollDelay(1000, failures))).toEqual([
      1000, 2000, 4000, 8000, 64_000,
    ]);
    expect(computePollDelay(20_000, 8)).toBe(600_000);
    expect(computePollDelay(1000, 1, 30)).toBe(30_000);
  });

  it("fingerprints a request independent of key order, and tells different bodies apart", () => {
    expect(hashVideoRequest({ a: 1, b: { c: 2, d: 3 } }, [])).toBe(hashVideoRequest({ b: { d: 3, c: 2 }, a: 1 }, []));
    expect(hashVideoRequest({ a: 1 }, [])).not.toBe(hashVideoRequest({ a: 2 }, []));
  });

  it("applies vid-a-2's defaults and limits and decodes a base64 input_reference", async () => {
    const png = createTinyPng(1, 1, [0, 0, 0]);
    const submission = await vidAFamily.prepare(
      { body: { model: "vid-a-2", prompt: "p", input_reference: png.toString("base64") }, files: [] },
      { fetchImage: refusingFetch },
    );
    expect(submission).toMatchObject({ seconds: 4, size: "720x1280", prompt: "p" });
    expect(submission.images).toEqual([
      { role: "first_frame", mimeType: "image/png", data: png, filename: "reference.png" },
    ]);
    await expect(
      vidAFamily.prepare(
        { body: { model: "vid-a-2", prompt: "p", seconds: "6" }, files: [] },
        { fetchImage: refusingFetch },
      ),
    ).rejects.toMatchObject({ code: "invalid_parameter", param: "seconds" });
    await expect(
      vidAFamily.prepare({ body: { model: "vid-a-2", prompt: " " }, files: [] }, { fetchImage: refusingFetch }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(() => vidAFamily.readRemixSource?.({ body: { remix_from_video_id: "abc" }, files: [] })).toThrow(
      InvalidRequestError,
    );
  });

  it("never shows the upstream task id, and names the upstream status in the seed's words", () => {
    const submitted = renderVideoTaskSubmission(baseTask);
    expect(submitted).toEqual({
      id: baseTask.id,
      object: "video",
      model: "vid-a-2",
      status: "queued",
      progress: 0,
      created_at: 1000,
      metadata: { output: { task_id: baseTask.id, task_status: "PENDING" }, request_id: "req-1" },
    });
    const failed = { ...baseTask, status: "failed" as const, errorCode: "task_timeout", errorMessage: "late" };
    expect(renderVideoTaskPlain(failed)).toEqual({
      task_id: baseTask.id,
      status: "failed",
      format: "mp4",
      error: { code: 504, message: "late" },
    });
    const completed = {
      ...baseTask,
      status: "completed" as const,
      progress: 100,
      billedSeconds: 4,
      completedTime: 1100,
    };
    expect(renderOpenaiVideo(completed)).toMatchObject({
      status: "completed",
      seconds: "4",
      url: `/v1/videos/${baseTask.id}/content`,
      error: null,
    });
    for (const answer of [submitted, renderVideoTaskPlain(failed), renderOpenaiVideo(completed)])
      expect(JSON.stringify(answer)).not.toContain("upstream_secret");
  });
});
