import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { convertVideoRequestToArk } from "../../../src/providers/ark/convert-video-request-to-ark.js";
import { mapArkVideoTask } from "../../../src/providers/ark/map-ark-video-task.js";
import type { VideoGenerationRequest } from "../../../src/video/video-generation-request.js";
import { startFakeArkVideoServer } from "./start-fake-ark-video-server.js";

const apiKey = "ark-video-key";
const upstream = await startFakeArkVideoServer({ apiKey, now: () => 1_767_225_600_000 });
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const authorization = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

async function create(body: object) {
  const response = await fetch(`${upstream.url}/api/v3/contents/generations/tasks`, {
    method: "POST",
    headers: authorization,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function get(id: string) {
  const response = await fetch(`${upstream.url}/api/v3/contents/generations/tasks/${id}`, { headers: authorization });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("fake ARK content-generation tasks", () => {
  it("takes the gateway's vid-e body, runs the timeline, and reports a video with token usage", async () => {
    const request = {
      model: "vid-e-1-5-pro-251215",
      metadata: {
        content: [{ type: "text", text: "A fox in snow --rs 720p --dur 5 --seed 7" }],
        return_last_frame: true,
      },
    } as VideoGenerationRequest;
    const created = await create(convertVideoRequestToArk(request, "doubao-seedance-1-5-pro-251215").body);
    expect(created).toEqual({ status: 200, body: { id: "cgt-20260101000000-00001" } });
    expect(mapArkVideoTask((await get(created.body.id)).body).status).toBe("queued");
    expect(mapArkVideoTask((await get(created.body.id)).body).status).toBe("in_progress");
    const done = (await get(created.body.id)).body;
    expect(done).toMatchObject({
      status: "succeeded",
      content: {
        video_url: `${upstream.url}/videos/cgt-20260101000000-00001.mp4`,
        last_frame_url: `${upstream.url}/videos/cgt-20260101000000-00001-last.png`,
      },
      usage: { completion_tokens: 108900, total_tokens: 108900 },
      resolution: "720p",
      duration: 5,
      seed: 7,
      generate_audio: true,
    });
    const snapshot = mapArkVideoTask(done);
    expect(snapshot).toMatchObject({ status: "completed", seconds: 5, completionTokens: 108900 });
    const video = await fetch(snapshot.resultUrl as string);
    expect(video.headers.get("content-type")).toBe("video/mp4");
  });

  it("ends [fail], [expire] and [cancel] prompts as the provider would, and 404s unknown tasks", async () => {
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const outcomes: string[] = [];
    for (const marker of ["[fail]", "[expire]", "[cancel]"]) {
      const created = await create({ model: "m", content: [{ type: "text", text: `x ${marker}` }] });
      const snapshot = mapArkVideoTask((await get(created.body.id)).body);
      outcomes.push(`${snapshot.upstreamStatus}:${snapshot.error?.code}`);
    }
    expect(outcomes).toEqual(["FAILED:OutputVideoSensitiveContentDetected", "FAILED:expired", "CANCELED:cancelled"]);
    expect((await get("cgt-nope")).status).toBe(404);
  });

  it("refuses bad strict fields naming them, reads bad text commands loosely, and needs the key", async () => {
    expect(await create({ model: "m", content: [{ type: "text", text: "x" }], resolution: "4k" })).toMatchObject({
      status: 400,
      body: { error: { code: "InvalidParameter", param: "resolution", type: "BadRequest" } },
    });
    expect((await create({ model: "m", content: [{ type: "text", text: "x" }], duration: 99 })).status).toBe(400);
    expect((await create({ model: "m", content: [] })).status).toBe(400);
    const loose = await create({ model: "m", content: [{ type: "text", text: "x --rs 4k --dur 6" }] });
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    expect(upstream.videos.get(loose.body.id)?.input).toMatchObject({ resolution: "720p", duration: 6 });
    const anonymous = await fetch(`${upstream.url}/api/v3/contents/generations/tasks/${loose.body.id}`);
    expect(anonymous.status).toBe(401);
  });

  it("answers the channel test's task list with an empty page for the key, 401 without it", async () => {
    const path = `${upstream.url}/api/v3/contents/generations/tasks?page_num=1&page_size=1`;
    const page = await fetch(path, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({ total: 0, items: [] });
    const anonymous = await fetch(path, { headers: { authorization: "Bearer wrong" } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "AuthenticationError" } });
  });
});
