import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeArkVideoUpstream,
  startFakeArkVideoServer,
} from "../../mocks/upstreams/ark/start-fake-ark-video-server.js";
import {
  type FakeDashscopeVideoUpstream,
  startFakeDashscopeVideoServer,
} from "../../mocks/upstreams/dashscope/start-fake-dashscope-video-server.js";
import { createFakeVideoBytes } from "../../mocks/upstreams/shared/create-fake-video-bytes.js";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { signCallbackBody } from "../../src/callbacks/sign-callback-body.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
/** 0.1 USD per second = 50,000 units per second. */
const unitsPerSecond = 50_000;
const start = 10_000_000;

interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A callback receiver on 127.0.0.1 that answers 500 to the first `failures` deliveries, then 204. */
async function startReceiver(failures: number) {
  const received: ReceivedCallback[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(received.length <= failures ? 500 : 204).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/video`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * vid-b on a native channel, end to end through plain HTTP: submit, poll, content through the gateway, billing per
 * returned sample, refusals before any upstream call, and a signed callback retried until the receiver takes it.
 */
describe.each(testDatabases)("video families on $name", ({ database }) => {
  let native: FakeNativeUpstream;
  let ark: FakeArkVideoUpstream;
  let dashscope: FakeDashscopeVideoUpstream;
  let gateway: TestGateway;
  let secret: string;

  beforeAll(async () => {
    native = await startFakeNativeServer({ apiKey: "native-secret" });
    ark = await startFakeArkVideoServer({ apiKey: "ark-secret" });
    dashscope = await startFakeDashscopeVideoServer({ apiKey: "dashscope-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native-video",
            type: "native",
            base_url: native.url,
            key: "native-secret",
            models: ["vid-b-3.1-fast-generate-preview", "vid-b-3.0-fast-generate-001"],
            model_mapping: {
              "vid-b-3.1-fast-generate-preview": "veo-3.1-fast-generate-preview",
              "vid-b-3.0-fast-generate-001": "veo-3.0-fast-generate-001",
            },
          },
          {
            name: "dashscope-video",
            type: "dashscope",
            base_url: dashscope.url,
            key: "dashscope-secret",
            models: ["vid-c2.5-t2v-preview", "vid-c2.7-videoedit"],
            model_mapping: { "vid-c2.5-t2v-preview": "wan2.5-t2v-preview", "vid-c2.7-videoedit": "wan2.7-videoedit" },
          },
          {
            name: "ark-video",
            type: "ark",
            base_url: ark.url,
            key: "ark-secret",
            models: ["vid-e-1-5-pro-251215", "vid-d-2-0"],
            model_mapping: {
              "vid-e-1-5-pro-251215": "doubao-seedance-1-5-pro-251215",
              "vid-d-2-0": "dreamina-seedance-2-0-260128",
            },
          },
        ],
        pricing: {
          "vid-b-3.1-fast-generate-preview": { per_second: 0.1 },
          "vid-b-3.0-fast-generate-001": { per_second: 0.1 },
          "vid-c2.5-t2v-preview": { per_second: 0.1 },
          "vid-c2.7-videoedit": { per_second: 0.1 },
          "vid-e-1-5-pro-251215": { per_second: 0.1 },
          // 2 USD per 1M output tokens: one unit per token.
          "vid-d-2-0": { output: 2 },
        },
        tasks: { poll_interval_ms: 40, callback_backoff_ms: 5 },
        fetch: { allow_private: ["127.0.0.1/32"] },
      },
    });
    // The keys below belong to root; root's signing secret signs their callbacks.
    const created = await gateway.client.management.POST("/api/user/self/webhook-secret");
    secret = created.data!.data.secret;
  });
  afterAll(async () => {
    await gateway.close();
    await native.close();
    await ark.close();
    await dashscope.close();
  });
  beforeEach(() => {
    native.reset();
    ark.reset();
    dashscope.reset();
  });

  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  const call = async (key: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${gateway.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  const waitForStatus = async (key: string, id: string, status: "completed" | "failed") => {
    await expect
      .poll(async () => (await call(key, `/v1/video/generations/${id}`)).body.data.status, {
        timeout: 5_000,
        interval: 20,
      })
      .toBe(status);
    return (await call(key, `/v1/video/generations/${id}`)).body;
  };
  const expectSpent = async (tokenId: number, spent: number) => {
    await expect
      .poll(
        async () => {
          const token = await readToken(gateway, tokenId);
          return [token.remain_quota, token.used_quota];
        },
        { timeout: 5_000, interval: 20 },
      )
      .toEqual([start - spent, spent]);
  };

  it("runs vid-b 3.1 first-and-last-frame to two samples, billed per sample, served by the gateway, called back signed", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    const receiver = await startReceiver(4);
    const png = createTinyPng(2, 2, [200, 30, 30]).toString("base64");
    try {
      native.videos.setTimeline({ queuedPolls: 1, runningPolls: 1 });
      const submitted = await call(key, "/v1/video/generations", {
        model: "vid-b-3.1-fast-generate-preview",
        prompt: "The flower blooms slowly",
        image: `data:image/png;base64,${png}`,
        lastFrame: png,
        durationSeconds: 4,
        sampleCount: 2,
        metadata: { callback_url: receiver.url },
      });
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({
        object: "video",
        model: "vid-b-3.1-fast-generate-preview",
        status: "queued",
        progress: 0,
      });
      const id = submitted.body.id as string;
      // Reserved at once: 4 s × 2 samples.
      expect((await readToken(gateway, tokenId)).remain_quota).toBe(start - 8 * unitsPerSecond);
      const upstreamSubmit = native.requests.find((request) => request.path.endsWith(":predictLongRunning"));
      expect(upstreamSubmit?.path).toBe("/v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning");
      expect(upstreamSubmit?.body).toEqual({
        instances: [
          {
            prompt: "The flower blooms slowly",
            image: { bytesBase64Encoded: png, mimeType: "image/png" },
            lastFrame: { bytesBase64Encoded: png, mimeType: "image/png" },
          },
        ],
        parameters: {
          aspectRatio: "16:9",
          durationSeconds: 4,
          resolution: "1080p",
          personGeneration: "allow_adult",
          sampleCount: 2,
          generateAudio: true,
        },
      });
      expect(JSON.stringify(upstreamSubmit?.body)).not.toContain(receiver.url);

      const finished = await waitForStatus(key, id, "completed");
      expect(finished.data).toMatchObject({
        status: "completed",
        progress: 100,
        seconds: "8",
        url: `/v1/videos/${id}/content`,
        video_url: `/v1/videos/${id}/content`,
        metadata: { output: { task_status: "SUCCEEDED" }, usage: { duration: 8, video_count: 2 } },
      });
      expect(JSON.stringify(finished)).not.toContain("native-secret");
      expect(JSON.stringify(finished)).not.toContain(native.url);
      await expectSpent(tokenId, 8 * unitsPerSecond);

      const content = await fetch(`${gateway.url}/v1/videos/${id}/content`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(content.status).toBe(200);
      expect(content.headers.get("content-type")).toBe("video/mp4");
      const operation = native.videos.list()[0]!;
      expect(Buffer.from(await content.arrayBuffer())).toEqual(
        createFakeVideoBytes(`${operation.id}/${operation.input.fileIds[0]}`),
      );
      // The file URL answered 302 to the storage host: the key went to the channel's host only, never to storage.
      const fileRequest = native.requests.find((request) => request.path.includes(":download"));
      expect(fileRequest?.headers["x-goog-api-key"]).toBe("native-secret");
      expect(native.storage.requests).toHaveLength(1);
      expect(native.storage.requests[0]?.path).toMatch(/^\/video-storage\/object\d+\?token=/);
      expect(JSON.stringify(native.storage.requests[0]?.headers)).not.toContain("native-secret");
      expect(native.storage.requests[0]?.headers["x-goog-api-key"]).toBeUndefined();

      // The receiver refused four times, then took the fifth; every try carried a valid signature of its body.
      await expect.poll(() => receiver.received.length, { timeout: 5_000, interval: 20 }).toBe(5);
      for (const delivery of receiver.received) {
        const timestamp = Number(delivery.headers["x-signature-timestamp"]);
        expect(delivery.headers["x-signature"]).toBe(signCallbackBody(secret, timestamp, delivery.body));
        expect(JSON.parse(delivery.body)).toMatchObject({ code: "success", data: { id, status: "completed" } });
      }
      await expect
        .poll(
          async () => (await call(key, `/v1/video/generations/${id}`)).body.data.metadata.callback.deliveries.length,
          {
            timeout: 5_000,
            interval: 20,
          },
        )
        .toBe(5);
      const { callback } = (await call(key, `/v1/video/generations/${id}`)).body.data.metadata;
      expect(callback.url).toBe(receiver.url);
      expect(
        callback.deliveries.map((delivery: { delivered: boolean; status_code: number }) => [
          delivery.delivered,
          delivery.status_code,
        ]),
      ).toEqual([
        [false, 500],
        [false, 500],
        [false, 500],
        [false, 500],
        [true, 204],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("fails a safety-filtered vid-b task with the filter's reason and refunds it whole", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    native.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const submitted = await call(key, "/v1/video/generations", {
      model: "vid-b-3.0-fast-generate-001",
      prompt: "x [filter]",
    });
    expect(submitted.status).toBe(200);
    const failed = await waitForStatus(key, submitted.body.id, "failed");
    expect(failed.data.error).toEqual({
      code: "content_filtered",
      message: "The prompt could not be used to generate a video because it violates the usage guidelines.",
    });
    await expectSpent(tokenId, 0);
  });

  it("refuses a vid-b rule before any upstream call, naming the field and the allowed values", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    const png = createTinyPng(2, 2, [200, 30, 30]).toString("base64");
    const refused = await call(key, "/v1/video/generations", {
      model: "vid-b-3.0-fast-generate-001",
      prompt: "x",
      image: png,
      lastFrame: png,
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        error: {
          message:
            "lastFrame must be absent (only vid-b-3.1-fast-generate-preview takes a last frame) for vid-b-3.0-fast-generate-001.",
          type: "invalid_request_error",
          code: "invalid_parameter",
          param: "lastFrame",
        },
      },
    });
    const badSeconds = await call(key, "/v1/video/generations", {
      model: "vid-b-3.0-fast-generate-001",
      prompt: "x",
      duration: 5,
    });
    expect(badSeconds.body.error).toMatchObject({ code: "invalid_parameter", param: "duration" });
    expect(native.requests).toHaveLength(0);
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start);
  });

  it("runs vid-c2.5 t2v with metadata.parameters winning for the body and the reservation, showing the provider's fields", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    dashscope.videos.setTimeline({ queuedPolls: 1, runningPolls: 1 });
    const submitted = await call(key, "/v1/video/generations", {
      model: "vid-c2.5-t2v-preview",
      prompt: "A kitten chasing a ribbon",
      duration: 5,
      metadata: { input: { prompt: "A kitten chasing a ribbon" }, parameters: { duration: 10, resolution: "720P" } },
    });
    expect(submitted.status).toBe(200);
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start - 10 * unitsPerSecond);
    expect(dashscope.requests[0]?.body).toEqual({
      model: "wan2.5-t2v-preview",
      input: { prompt: "A kitten chasing a ribbon" },
      parameters: { duration: 10, resolution: "720P", prompt_extend: true, watermark: false },
    });
    const finished = await waitForStatus(key, submitted.body.id, "completed");
    const taskId = dashscope.videos.list()[0]!.id;
    expect(finished.data).toMatchObject({
      seconds: "10",
      url: `${dashscope.url}/videos/${taskId}.mp4?Expires=1893456000&Signature=fake`,
      metadata: {
        output: {
          task_status: "SUCCEEDED",
          orig_prompt: "A kitten chasing a ribbon",
          submit_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/),
          scheduled_time: expect.any(String),
          end_time: expect.any(String),
          input_video_duration: 0,
          output_video_duration: 10,
        },
        usage: { SR: 720, duration: 10, video_count: 1 },
      },
    });
    // The provider's task id stays private: the task id shown is the gateway's own.
    expect(finished.data.metadata.output.task_id).toBe(submitted.body.id);
    await expectSpent(tokenId, 10 * unitsPerSecond);
  });

  it("bills vid-c2.7-videoedit by input plus output seconds, and refunds a failed vid-c task", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    dashscope.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const edit = await call(key, "/v1/video/generations", {
      model: "vid-c2.7-videoedit",
      prompt: "Make it snow",
      metadata: {
        input: { prompt: "Make it snow", media: [{ type: "video", url: "https://example.com/street.mp4" }] },
      },
    });
    expect(edit.status).toBe(200);
    // The longest source (10 s) plus the longest output (10 s).
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start - 20 * unitsPerSecond);
    const finished = await waitForStatus(key, edit.body.id, "completed");
    expect(finished.data.seconds).toBe("13.24");
    await expectSpent(tokenId, 13.24 * unitsPerSecond);

    const failing = await call(key, "/v1/video/generations", { model: "vid-c2.5-t2v-preview", prompt: "x [fail]" });
    const failed = await waitForStatus(key, failing.body.id, "failed");
    expect(failed.data.error).toEqual({
      code: "DataInspectionFailed",
      message: "Output data may contain inappropriate content.",
    });
    await expectSpent(tokenId, 13.24 * unitsPerSecond);
  });

  it("runs vid-e 1.5 pro from its text flags, with audio and the last frame, the client's callback kept from the upstream", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    ark.videos.setTimeline({ queuedPolls: 1, runningPolls: 0 });
    const content = [
      { type: "text", text: "A fox running through fresh snow --rs 720p --dur 6 --seed 7 --wm false" },
      { type: "image_url", image_url: { url: "https://example.com/fox.jpg" }, role: "first_frame" },
    ];
    const submitted = await call(key, "/v1/video/generations", {
      model: "vid-e-1-5-pro-251215",
      prompt: "not used",
      metadata: { content, return_last_frame: true, callback_url: "https://client.example.com/hooks/video" },
    });
    expect(submitted.status).toBe(200);
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start - 6 * unitsPerSecond);
    expect(ark.requests[0]?.body).toEqual({
      model: "doubao-seedance-1-5-pro-251215",
      content,
      return_last_frame: true,
      generate_audio: true,
    });
    const finished = await waitForStatus(key, submitted.body.id, "completed");
    expect(finished.data).toMatchObject({ seconds: "6", url: expect.stringContaining(`${ark.url}/videos/`) });
    await expectSpent(tokenId, 6 * unitsPerSecond);
  });

  it("fails a vid-e task the provider fails, with its code, and refunds it whole", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    ark.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const submitted = await call(key, "/v1/video/generations", {
      model: "vid-e-1-5-pro-251215",
      metadata: { content: [{ type: "text", text: "Something [fail] --dur 4" }] },
    });
    expect(submitted.status).toBe(200);
    const failed = await waitForStatus(key, submitted.body.id, "failed");
    expect(failed.data.error).toEqual({
      code: "OutputVideoSensitiveContentDetected",
      message: "The request failed because the output video may contain sensitive information.",
    });
    expect(failed.data.metadata.output.task_status).toBe("FAILED");
    await expectSpent(tokenId, 0);
  });

  it("bills vid-d-2-0 per 1M output tokens where the provider reports them", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    ark.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const submitted = await call(key, "/v1/video/generations", {
      model: "vid-d-2-0",
      prompt: "A red kite over the sea",
      metadata: { content: undefined },
    });
    expect(submitted.status).toBe(200);
    // 720p × 121 frames / 1024 = 108,900 tokens at one unit each, reserved up front.
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start - 108_900);
    expect(ark.requests[0]?.body).toEqual({
      model: "dreamina-seedance-2-0-260128",
      content: [{ type: "text", text: "A red kite over the sea" }],
    });
    await waitForStatus(key, submitted.body.id, "completed");
    await expectSpent(tokenId, 108_900);
  });

  it("refuses vid-c and vid-e rules before any upstream call", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    const frames = await call(key, "/v1/video/generations", {
      model: "vid-e-1-5-pro-251215",
      metadata: { content: [{ type: "text", text: "A fox --frames 30" }] },
    });
    expect(frames).toEqual({
      status: 400,
      body: {
        error: {
          message: "--frames must be an integer from 29 to 289 of the form 25+4n for vid-e-1-5-pro-251215.",
          type: "invalid_request_error",
          code: "invalid_parameter",
          param: "--frames",
        },
      },
    });
    const duration = await call(key, "/v1/video/generations", {
      model: "vid-c2.5-t2v-preview",
      prompt: "x",
      duration: 3,
    });
    expect(duration.body.error).toMatchObject({
      message: "duration must be one of 5, 10 for vid-c2.5-t2v-preview.",
      code: "invalid_parameter",
      param: "duration",
    });
    const media = await call(key, "/v1/video/generations", {
      model: "vid-c2.7-videoedit",
      prompt: "x",
      metadata: { input: { prompt: "x", media: [{ type: "reference_image", url: "https://example.com/a.png" }] } },
    });
    expect(media.body.error).toMatchObject({ code: "invalid_request", param: "metadata.input.media" });
    // The document's limit is four reference images beside the video; five get the family's own message.
    const image = (name: string) => ({ type: "reference_image", url: `https://example.com/${name}.png` });
    const fiveImages = await call(key, "/v1/video/generations", {
      model: "vid-c2.7-videoedit",
      prompt: "x",
      metadata: {
        input: {
          prompt: "x",
          media: [{ type: "video", url: "https://example.com/a.mp4" }, ...["a", "b", "c", "d", "e"].map(image)],
        },
      },
    });
    expect(fiveImages).toEqual({
      status: 400,
      body: {
        error: {
          message:
            "metadata.input.media holds 5 reference images; vid-c2.7-videoedit takes at most 4 (items of type reference_image) beside the video.",
          type: "invalid_request_error",
          code: "invalid_parameter",
          param: "metadata.input.media",
        },
      },
    });
    expect([...ark.requests, ...dashscope.requests]).toHaveLength(0);
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start);
  });
});
