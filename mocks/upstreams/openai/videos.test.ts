import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTinyPng } from "../native/create-tiny-png.js";
import { createFakeMp4 } from "./create-fake-mp4.js";
import { type FakeOpenaiUpstream, startFakeOpenaiServer } from "./start-fake-openai-server.js";

let upstream: FakeOpenaiUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer({ apiKey: "sk-fake" });
  client = new OpenAI({ apiKey: "sk-fake", baseURL: `${upstream.url}/v1`, maxRetries: 0 });
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

describe("the fake OpenAI video endpoints", () => {
  it("walks a video through its timeline, one step per retrieve, and serves an MP4 once completed", async () => {
    upstream.videos.setTimeline({ queuedPolls: 1, runningPolls: 2 });
    const created = await client.videos.create({ model: "sora-2", prompt: "a boat", seconds: "8", size: "1280x720" });
    expect(created).toMatchObject({ id: "video_fake000001", status: "queued", progress: 0, seconds: "8" });
    const states = [];
    for (let poll = 0; poll < 5; poll += 1) {
      const video = await client.videos.retrieve(created.id);
      states.push([video.status, video.progress]);
    }
    expect(states).toEqual([
      ["queued", 0],
      ["in_progress", 33],
      ["in_progress", 67],
      ["completed", 100],
      ["completed", 100],
    ]);
    const content = await client.videos.downloadContent(created.id);
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes).toEqual(createFakeMp4("a boat"));
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
  });

  it("takes an input_reference file, remixes a completed video and fails a [fail] prompt", async () => {
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const png = await toFile(createTinyPng(1, 1, [1, 2, 3]), "frame.png", { type: "image/png" });
    const created = await client.videos.create({ model: "sora-2", prompt: "spin", input_reference: png });
    expect(upstream.videos.get(created.id)?.inputReference).toMatchObject({ name: "frame.png", type: "image/png" });
    await client.videos.retrieve(created.id);
    const remix = await client.videos.remix(created.id, { prompt: "at night" });
    expect(remix).toMatchObject({ remixed_from_video_id: created.id, status: "queued", seconds: "4" });
    const failing = await client.videos.create({ model: "sora-2", prompt: "bad [fail]" });
    expect(await client.videos.retrieve(failing.id)).toMatchObject({
      status: "failed",
      error: { code: "moderation_blocked" },
    });
  });

  it("injects 429 on retrieves, 5xx on creates, and lets a video vanish", async () => {
    const created = await client.videos.create({ model: "sora-2", prompt: "x" });
    upstream.videos.failRetrieves(429, 1);
    await expect(client.videos.retrieve(created.id)).rejects.toMatchObject({ status: 429 });
    expect((await client.videos.retrieve(created.id)).status).toBe("queued");
    upstream.videos.failCreates(503, 1);
    await expect(client.videos.create({ model: "sora-2", prompt: "y" })).rejects.toMatchObject({ status: 503 });
    upstream.videos.vanish(created.id);
    await expect(client.videos.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });
});
