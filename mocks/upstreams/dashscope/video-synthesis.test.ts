import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { convertVideoRequestToDashScope } from "../../../src/providers/dashscope/convert-video-request-to-dashscope.js";
import { mapDashScopeVideoTask } from "../../../src/providers/dashscope/map-dashscope-video-task.js";
import { startFakeDashscopeVideoServer } from "./start-fake-dashscope-video-server.js";

const apiKey = "dashscope-video-key";
let ids = 0;
const upstream = await startFakeDashscopeVideoServer({
  apiKey,
  now: () => Date.UTC(2026, 7, 27, 15, 59, 59, 299),
  createTaskId: () => `task-${++ids}`,
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.reset();
  ids = 0;
});

const headers = {
  authorization: `Bearer ${apiKey}`,
  "content-type": "application/json",
  "x-dashscope-async": "enable",
};

async function submit(body: object, extraHeaders: Record<string, string> = headers) {
  const response = await fetch(`${upstream.url}/api/v1/services/aigc/video-generation/video-synthesis`, {
    method: "POST",
    headers: extraHeaders,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function poll(id: string) {
  const response = await fetch(`${upstream.url}/api/v1/tasks/${id}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return (await response.json()) as Record<string, any>;
}

describe("fake DashScope video synthesis", () => {
  it("runs the gateway's vid-c2.5 body to a video with the provider's extra fields", async () => {
    const { body } = convertVideoRequestToDashScope(
      { model: "vid-c2.5-t2v-preview", prompt: "A kitten", duration: 10 },
      "wan2.5-t2v-preview",
    );
    expect(await submit(body)).toEqual({
      status: 200,
      body: { output: { task_id: "task-1", task_status: "PENDING" }, request_id: "req-task-1" },
    });
    expect(mapDashScopeVideoTask(await poll("task-1")).status).toBe("queued");
    expect(mapDashScopeVideoTask(await poll("task-1")).status).toBe("in_progress");
    const snapshot = mapDashScopeVideoTask(await poll("task-1"));
    expect(snapshot).toMatchObject({
      status: "completed",
      seconds: 10,
      resultUrl: `${upstream.url}/videos/task-1.mp4?Expires=1893456000&Signature=fake`,
      upstreamStatus: "SUCCEEDED",
      output: {
        submitTime: "2026-08-27 15:59:59.299",
        scheduledTime: "2026-08-27 15:59:59.299",
        endTime: "2026-08-27 15:59:59.299",
        inputVideoDuration: 0,
        outputVideoDuration: 10,
      },
      usage: { resolution: 720, videoCount: 1 },
    });
  });

  it("bills an edit task by source plus output seconds", async () => {
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const { body } = convertVideoRequestToDashScope(
      {
        model: "vid-c2.7-videoedit",
        prompt: "Make it snow",
        metadata: { input: { prompt: "Make it snow", media: [{ type: "video", url: "https://example.com/a.mp4" }] } },
      },
      "wan2.7-videoedit",
    );
    await submit(body);
    expect(mapDashScopeVideoTask(await poll("task-1")).seconds).toBe(13.24);
  });

  it("fails [fail] prompts, cancels [cancel] ones, answers UNKNOWN for a vanished task", async () => {
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    await submit({ model: "wan2.5-t2v-preview", input: { prompt: "x [fail]" } });
    await submit({ model: "wan2.5-t2v-preview", input: { prompt: "x [cancel]" } });
    await submit({ model: "wan2.5-t2v-preview", input: { prompt: "x" } });
    upstream.videos.vanish("task-3");
    expect(mapDashScopeVideoTask(await poll("task-1")).error).toEqual({
      code: "DataInspectionFailed",
      message: "Output data may contain inappropriate content.",
    });
    expect(mapDashScopeVideoTask(await poll("task-2")).upstreamStatus).toBe("CANCELED");
    expect(mapDashScopeVideoTask(await poll("task-3")).upstreamStatus).toBe("UNKNOWN");
  });

  it("refuses synchronous calls, bad parameters, edit tasks without a video and a wrong key", async () => {
    const { "x-dashscope-async": _, ...synchronous } = headers;
    expect(await submit({ model: "m", input: { prompt: "x" } }, synchronous)).toMatchObject({
      status: 403,
      body: { code: "AccessDenied", message: "current user api does not support synchronous calls" },
    });
    expect((await submit({ model: "m", input: { prompt: "x" }, parameters: { resolution: "4K" } })).body.code).toBe(
      "InvalidParameter",
    );
    expect((await submit({ model: "wan2.7-videoedit", input: { prompt: "x", media: [] } })).status).toBe(400);
    expect(
      (await submit({ model: "m", input: { prompt: "x" } }, { ...headers, authorization: "Bearer wrong" })).body.code,
    ).toBe("InvalidApiKey");
  });
});
