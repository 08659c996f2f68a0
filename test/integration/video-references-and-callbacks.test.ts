import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import {
  type FakeOpenaiUpstream,
  startFakeOpenaiServer,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { signCallbackBody } from "../../src/callbacks/sign-callback-body.js";
import { listCallbackDeliveries } from "../../src/store/callback-deliveries/list-callback-deliveries.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { videoGatewayConfig, videoUnitsPerSecond } from "../support/video-gateway-config.js";

const testDatabases = await openTestDatabases();
const start = 10_000_000;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One server on 127.0.0.1 standing for the operator's internal storage and the client's callback receiver: it serves
 * a PNG at /frame.png and takes callbacks (204) on any other path.
 */
async function startPrivateHost(png: Buffer) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString() });
      if (request.url === "/frame.png") response.writeHead(200, { "content-type": "image/png" }).end(png);
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Video references are downloaded by the gateway's one fetcher configuration, so the operator's fetch.allow_private
 * opens internal storage to video as it does to images, and nothing else; vid-a-2 takes a callback address like
 * every family: checked at submission, delivered signed, every try recorded.
 */
describe.each(testDatabases)("video references and vid-a-2 callbacks on $name", ({ database }) => {
  const png = createTinyPng(2, 2, [10, 120, 240]);
  let openai: FakeOpenaiUpstream;
  let native: FakeNativeUpstream;
  let privateHost: Awaited<ReturnType<typeof startPrivateHost>>;
  let gateway: TestGateway;
  let secret: string;

  beforeAll(async () => {
    openai = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    native = await startFakeNativeServer({ apiKey: "native-secret" });
    privateHost = await startPrivateHost(png);
    const base = videoGatewayConfig(openai.url, { callback_backoff_ms: 5 });
    gateway = await startTestGateway({
      database,
      configFile: {
        ...base,
        channels: [
          ...base.channels,
          {
            name: "native-video",
            type: "native",
            base_url: native.url,
            key: "native-secret",
            models: ["vid-b-3.1-fast-generate-preview"],
            model_mapping: { "vid-b-3.1-fast-generate-preview": "veo-3.1-fast-generate-preview" },
          },
        ],
        pricing: { ...base.pricing, "vid-b-3.1-fast-generate-preview": { per_second: 0.1 } },
        // The operator trusts exactly one internal address.
        fetch: { allow_private: ["127.0.0.1/32"] },
      },
    });
    secret = (await gateway.client.management.POST("/api/user/self/webhook-secret")).data!.data.secret;
  });
  afterAll(async () => {
    await gateway.close();
    await openai.close();
    await native.close();
    await privateHost.close();
  });
  beforeEach(() => {
    openai.reset();
    native.reset();
    privateHost.received.length = 0;
  });

  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  const post = async (key: string, path: string, body: unknown): Promise<{ status: number; body: any }> => {
    const answer = await fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json() };
  };
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  const query = async (key: string, id: string): Promise<any> =>
    (await fetch(`${gateway.url}/v1/video/generations/${id}`, { headers: { authorization: `Bearer ${key}` } })).json();

  it("downloads vid-a-2's input_reference and vid-b's frames from an allow-listed private address", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: start });
    const reference = `${privateHost.url}/frame.png`;
    const videoA = await post(key, "/v1/videos", {
      model: "vid-a-2",
      prompt: "from storage",
      input_reference: reference,
    });
    expect(videoA.status).toBe(200);
    expect(openai.videos.list().map((video) => video.inputReference)).toEqual([
      { name: "reference.png", type: "image/png", size: png.length },
    ]);
    const videoB = await post(key, "/v1/video/generations", {
      model: "vid-b-3.1-fast-generate-preview",
      prompt: "from storage",
      image: reference,
      lastFrame: reference,
      durationSeconds: 4,
    });
    expect(videoB.status).toBe(200);
    const submitted = native.requests.find((request) => request.path.endsWith(":predictLongRunning"));
    expect(submitted?.body).toMatchObject({
      instances: [
        {
          image: { bytesBase64Encoded: png.toString("base64"), mimeType: "image/png" },
          lastFrame: { bytesBase64Encoded: png.toString("base64"), mimeType: "image/png" },
        },
      ],
    });
    expect(privateHost.received.map((request) => request.path)).toEqual(["/frame.png", "/frame.png", "/frame.png"]);
  });

  it("still refuses a private address the operator did not list, before any upstream call or charge", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    // 127.0.0.2 is loopback too, but outside the operator's 127.0.0.1/32.
    const unlisted = `http://127.0.0.2:${privateHost.port}/frame.png`;
    const videoA = await post(key, "/v1/videos", { model: "vid-a-2", prompt: "p", input_reference: unlisted });
    expect(videoA.status).toBe(400);
    expect(videoA.body.error).toMatchObject({ code: "invalid_media_url", param: "input_reference" });
    const videoB = await post(key, "/v1/video/generations", {
      model: "vid-b-3.1-fast-generate-preview",
      prompt: "p",
      image: unlisted,
    });
    expect(videoB.status).toBe(400);
    expect(videoB.body.error).toMatchObject({ code: "invalid_media_url", param: "image" });
    expect(privateHost.received).toHaveLength(0);
    expect(openai.videos.list()).toHaveLength(0);
    // (The poller may still be asking about the earlier test's task.)
    expect(native.requests.filter((request) => request.method === "POST")).toHaveLength(0);
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(start);
  });

  it("delivers vid-a-2's callback signed, with a delivery record, and refuses a bad callback address at submit", async () => {
    const { id: tokenId, key } = await createApiKey(gateway, { remainQuota: start });
    openai.videos.setTimeline({ queuedPolls: 0, runningPolls: 0 });
    const callbackUrl = `${privateHost.url}/hooks/video`;
    const submitted = await post(key, "/v1/video/generations", {
      model: "vid-a-2",
      prompt: "a lighthouse",
      seconds: 4,
      metadata: { callback_url: callbackUrl },
    });
    expect(submitted.status).toBe(200);
    const id = submitted.body.id as string;
    await expect.poll(() => privateHost.received.length, { timeout: 5_000, interval: 20 }).toBe(1);
    const [delivery] = privateHost.received;
    expect(delivery?.path).toBe("/hooks/video");
    const timestamp = Number(delivery?.headers["x-signature-timestamp"]);
    expect(delivery?.headers["x-signature"]).toBe(signCallbackBody(secret, timestamp, delivery?.body ?? ""));
    expect(JSON.parse(delivery?.body ?? "")).toMatchObject({ code: "success", data: { id, status: "completed" } });
    await expect.poll(async () => (await listCallbackDeliveries(database.db, id)).length).toBe(1);
    expect(await listCallbackDeliveries(database.db, id)).toMatchObject([
      { attempt: 1, succeeded: true, statusCode: 204 },
    ]);
    const { callback } = (await query(key, id)).data.metadata;
    expect(callback).toMatchObject({
      url: callbackUrl,
      deliveries: [{ attempt: 1, delivered: true, status_code: 204 }],
    });
    // The address stays with the gateway: the upstream never sees it.
    expect(JSON.stringify(openai.videos.list())).not.toContain("/hooks/video");

    const spentBefore = (await readToken(gateway, tokenId)).used_quota;
    expect(spentBefore).toBe(4 * videoUnitsPerSecond);
    for (const [path, bad] of [
      ["/v1/video/generations", "ftp://client.example.com/hook"],
      ["/v1/videos", "https://user:password@client.example.com/hook"],
    ] as const) {
      const refused = await post(key, path, { model: "vid-a-2", prompt: "p", metadata: { callback_url: bad } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ param: "metadata.callback_url" });
    }
    expect(openai.videos.list()).toHaveLength(1);
    expect(await readToken(gateway, tokenId)).toMatchObject({
      used_quota: spentBefore,
      remain_quota: start - spentBefore,
    });
  });
});
