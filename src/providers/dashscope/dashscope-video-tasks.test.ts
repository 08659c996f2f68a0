import { afterAll, describe, expect, it } from "vitest";
import { startFakeDashscopeVideoServer } from "../../../mocks/upstreams/dashscope/start-fake-dashscope-video-server.js";
import type { ChannelAttempt } from "../contract/channel-attempt.js";
import { buildUpstreamHeaders } from "../../upstream/build-upstream-headers.js";
import { ClientGoneSignal } from "../../http/client-gone-signal.js";
import { closeUpstreamDispatchers } from "../../upstream/get-upstream-dispatcher.js";
import { vidCFamily } from "../../tasks/families/vid-c-family.js";
import { dashscopeVideoTasks } from "./dashscope-video-tasks.js";

const upstream = await startFakeDashscopeVideoServer({ apiKey: "dashscope-secret", createTaskId: () => "task-42" });
afterAll(async () => {
  await closeUpstreamDispatchers();
  await upstream.close();
});

const attempt = {
  channel: {
    id: 9102,
    type: "dashscope",
    keys: ["dashscope-secret"],
    baseUrl: upstream.url,
    timeouts: { connectMs: 1000, headerMs: 2000, idleMs: 2000 },
  },
  group: "default",
  upstreamModel: "wan2.5-i2v-preview",
  upstreamKey: "dashscope-secret",
} as unknown as ChannelAttempt;
const upstreamHeaders = (options?: { jsonBody?: boolean }) =>
  buildUpstreamHeaders({ authorization: "Bearer dashscope-secret" }, options);
const noFetch = () => Promise.reject(new Error("no download expected"));

describe("dashscopeVideoTasks against the fake DashScope", () => {
  it("reserves what metadata.parameters asks, submits asynchronously with the key and polls to the video", async () => {
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 1 });
    const submission = await vidCFamily.prepare(
      {
        body: {
          model: "vid-c2.5-i2v-preview",
          prompt: "The cat blinks",
          duration: 5,
          metadata: {
            input: { prompt: "The cat blinks", img_url: "https://example.com/cat.jpg" },
            parameters: { duration: 10, resolution: "1080P" },
          },
        },
        files: [],
      },
      { fetchImage: noFetch },
    );
    expect(submission).toMatchObject({ prompt: "The cat blinks", seconds: 10, images: [] });
    const call = { attempt, signal: new ClientGoneSignal(), upstreamHeaders };
    const submitted = await dashscopeVideoTasks.submit(submission, call);
    expect(submitted).toEqual({ upstreamTaskId: "task-42", snapshot: { status: "queued", upstreamStatus: "PENDING" } });
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers).toMatchObject({ authorization: "Bearer dashscope-secret", "x-dashscope-async": "enable" });
    expect(sent.body).toEqual({
      model: "wan2.5-i2v-preview",
      input: { prompt: "The cat blinks", img_url: "https://example.com/cat.jpg" },
      parameters: { duration: 10, resolution: "1080P", prompt_extend: true, watermark: false },
    });
    expect((await dashscopeVideoTasks.poll("task-42", call)).status).toBe("in_progress");
    expect(await dashscopeVideoTasks.poll("task-42", call)).toMatchObject({
      status: "completed",
      seconds: 10,
      usage: { resolution: 1080, videoCount: 1 },
    });
    upstream.videos.vanish("task-42");
    expect((await dashscopeVideoTasks.poll("task-42", call)).upstreamStatus).toBe("UNKNOWN");
  });
});
