import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeNativeServer } from "./start-fake-native-server.js";

const apiKey = "native-video-key";
const upstream = await startFakeNativeServer({ apiKey });
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const headers = { "content-type": "application/json", "x-goog-api-key": apiKey };
const image = { bytesBase64Encoded: "iVBORw0KGgo=", mimeType: "image/png" };

async function submit(model: string, body: object) {
  const response = await fetch(`${upstream.url}/v1beta/models/${model}:predictLongRunning`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function poll(name: string) {
  const response = await fetch(`${upstream.url}/v1beta/${name}`, { headers: { "x-goog-api-key": apiKey } });
  return (await response.json()) as Record<string, any>;
}

describe("fake native long-running video", () => {
  it("runs an operation through its timeline to samples that download only with the key", async () => {
    upstream.videos.setTimeline({ queuedPolls: 1, runningPolls: 1 });
    const created = await submit("veo-3.1-fast-generate-preview", {
      instances: [
        { prompt: "A lighthouse", image, lastFrame: { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } } },
      ],
      parameters: { aspectRatio: "16:9", durationSeconds: 8, resolution: "1080p", sampleCount: 2, generateAudio: true },
    });
    expect(created).toEqual({
      status: 200,
      body: { name: "models/veo-3.1-fast-generate-preview/operations/op000001" },
    });
    const name = created.body.name as string;
    expect((await poll(name)).done).toBeUndefined();
    expect((await poll(name)).done).toBeUndefined();
    const done = await poll(name);
    expect(done.done).toBe(true);
    const samples = done.response.generateVideoResponse.generatedSamples as Array<{ video: { uri: string } }>;
    expect(samples.map((sample) => sample.video.uri)).toEqual([
      `${upstream.url}/v1beta/files/file000002:download?alt=media`,
      `${upstream.url}/v1beta/files/file000003:download?alt=media`,
    ]);
    const withoutKey = await fetch(samples[0]!.video.uri);
    expect(withoutKey.status).toBe(403);
    // The API answers the download with a redirect to a storage host, whose signed URL needs no key.
    const redirect = await fetch(samples[0]!.video.uri, { headers: { "x-goog-api-key": apiKey }, redirect: "manual" });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("location")!;
    expect(location.startsWith(`${upstream.storage.url}/video-storage/`)).toBe(true);
    expect(new URL(location).host).not.toBe(new URL(upstream.url).host);
    const tampered = new URL(location);
    tampered.searchParams.set("token", "wrong");
    expect((await fetch(tampered)).status).toBe(403);
    const download = await fetch(location);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(bytes.toString("latin1")).toContain("op000001/file000002");
    expect(upstream.videos.get("op000001")?.pollTimes).toHaveLength(3);
  });

  it("ends [filter] prompts with every sample filtered and [fail] prompts with an rpc error", async () => {
    upstream.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const filtered = await submit("veo-3.0-fast-generate-001", {
      instances: [{ prompt: "x [filter]" }],
      parameters: {},
    });
    expect((await poll(filtered.body.name as string)).response.generateVideoResponse).toEqual({
      raiMediaFilteredCount: 1,
      raiMediaFilteredReasons: [
        "The prompt could not be used to generate a video because it violates the usage guidelines.",
      ],
    });
    const failed = await submit("veo-3.0-fast-generate-001", { instances: [{ prompt: "x [fail]" }] });
    expect((await poll(failed.body.name as string)).error).toEqual({
      code: 13,
      message: "Video generation failed due to an internal error.",
    });
  });

  it("refuses what the provider refuses, and unknown operations", async () => {
    expect(
      await submit("veo-3.0-fast-generate-001", { instances: [{ prompt: "x", image, lastFrame: image }] }),
    ).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "lastFrame is not supported by veo-3.0-fast-generate-001.",
          status: "INVALID_ARGUMENT",
        },
      },
    });
    expect(
      (await submit("veo-3.0-fast-generate-001", { instances: [{ prompt: "x" }], parameters: { sampleCount: 5 } }))
        .status,
    ).toBe(400);
    expect((await submit("veo-3.0-fast-generate-001", { instances: [] })).status).toBe(400);
    expect((await poll("models/veo-3.0-fast-generate-001/operations/nope")).error.status).toBe("NOT_FOUND");
  });
});
