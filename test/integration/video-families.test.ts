import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
  let gateway: TestGateway;
  let secret: string;

  beforeAll(async () => {
    native = await startFakeNativeServer({ apiKey: "native-secret" });
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
        ],
        pricing: {
          "vid-b-3.1-fast-generate-preview": { per_second: 0.1 },
          "vid-b-3.0-fast-generate-001": { per_second: 0.1 },
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
  });
  beforeEach(() => native.reset());

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
});
