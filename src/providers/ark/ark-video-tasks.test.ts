import { afterAll, describe, expect, it } from "vitest";
import { startFakeArkVideoServer } from "../../../mocks/upstreams/ark/start-fake-ark-video-server.js";
import type { ChannelAttempt } from "../contract/channel-attempt.js";
import { buildUpstreamHeaders } from "../../upstream/build-upstream-headers.js";
import { ClientGoneSignal } from "../../http/client-gone-signal.js";
import { closeUpstreamDispatchers } from "../../upstream/get-upstream-dispatcher.js";
import { vidDEFamily } from "../../tasks/families/vid-d-e-family.js";
import { arkVideoTasks } from "./ark-video-tasks.js";

const upstream = await startFakeArkVideoServer({ apiKey: "ark-secret" });
afterAll(async () => {
  await closeUpstreamDispatchers();
  await upstream.close();
});

const attempt = {
  channel: {
    id: 9101,
    type: "ark",
    keys: ["ark-secret"],
    baseUrl: upstream.url,
    timeouts: { connectMs: 1000, headerMs: 2000, idleMs: 2000 },
  },
  group: "default",
  upstreamModel: "doubao-seedance-1-5-pro-251215",
  upstreamKey: "ark-secret",
} as unknown as ChannelAttempt;
const upstreamHeaders = (options?: { jsonBody?: boolean }) =>
  buildUpstreamHeaders({ authorization: "Bearer ark-secret" }, options);
const noFetch = () => Promise.reject(new Error("no download expected"));

describe("arkVideoTasks against the fake ARK", () => {
  it("submits the vid-e family's task with the key, polls it to the end and reports seconds and tokens", async () => {
    upstream.videos.setTimeline({ queuedPolls: 1, runningPolls: 0 });
    const submission = await vidDEFamily.prepare(
      {
        body: {
          model: "vid-e-1-5-pro-251215",
          metadata: {
            content: [{ type: "text", text: "A fox in snow --dur 5 --rs 720p" }],
            callback_url: "https://client.example.com/hook",
          },
        },
        files: [],
      },
      { fetchImage: noFetch },
    );
    expect(submission).toMatchObject({
      prompt: "A fox in snow",
      seconds: 5,
      estimatedCompletionTokens: 108900,
      keep: { callback_url: "https://client.example.com/hook" },
    });
    const call = { attempt, signal: new ClientGoneSignal(), upstreamHeaders };
    const submitted = await arkVideoTasks.submit(submission, call);
    expect(submitted.snapshot).toEqual({ status: "queued", upstreamStatus: "PENDING" });
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer ark-secret");
    expect(sent.body).toEqual({
      model: "doubao-seedance-1-5-pro-251215",
      content: [{ type: "text", text: "A fox in snow --dur 5 --rs 720p" }],
      generate_audio: true,
    });
    expect((await arkVideoTasks.poll(submitted.upstreamTaskId, call)).status).toBe("queued");
    expect(await arkVideoTasks.poll(submitted.upstreamTaskId, call)).toMatchObject({
      status: "completed",
      upstreamStatus: "SUCCEEDED",
      seconds: 5,
      completionTokens: 108900,
      resultUrl: `${upstream.url}/videos/${submitted.upstreamTaskId}.mp4`,
    });
  });

  it("ends a task the provider no longer knows as failed", async () => {
    expect(
      await arkVideoTasks.poll("cgt-unknown", { attempt, signal: new ClientGoneSignal(), upstreamHeaders }),
    ).toEqual({
      status: "failed",
      upstreamStatus: "UNKNOWN",
      error: { code: "upstream_task_not_found", message: "The upstream no longer knows this video task." },
    });
  });
});
