import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import { createFakeMp4 } from "../../mocks/upstreams/openai/create-fake-mp4.js";
import {
  type FakeOpenaiUpstream,
  startFakeOpenaiServer,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { videoGatewayConfig, videoUnitsPerSecond } from "../support/video-gateway-config.js";

const testDatabases = await openTestDatabases();

const unitsPerSecond = videoUnitsPerSecond;

/**
 * vid-a-2 on an OpenAI video channel, end to end: the official SDK (`videos.create`, `retrieve`, `downloadContent`,
 * `remix`) and plain HTTP for the seed's endpoints; billing per second, settled or refunded once.
 */
describe.each(testDatabases)("video tasks on $name", ({ database }) => {
  let upstream: FakeOpenaiUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    gateway = await startTestGateway({ database, configFile: videoGatewayConfig(upstream.url) });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  const newKey = async (remainQuota = 10_000_000) => {
    const apiKey = await createApiKey(gateway, { remainQuota });
    const client = new OpenAI({ apiKey: apiKey.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    return { ...apiKey, client };
  };
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field against the spec's shapes
  const readJson = async (answer: Response): Promise<any> => answer.json();
  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    });
  const waitForStatus = async (client: OpenAI, id: string, status: "completed" | "failed") => {
    await expect
      .poll(async () => (await client.videos.retrieve(id)).status, { timeout: 5_000, interval: 20 })
      .toBe(status);
    return client.videos.retrieve(id);
  };
  /** Waits until every task of the key has settled (nothing held any more), then checks the balance exactly. */
  const expectSpent = async (tokenId: number, start: number, spent: number) => {
    await expect
      .poll(
        async () => {
          const token = await readToken(gateway, tokenId);
          return token.remain_quota + token.used_quota;
        },
        { timeout: 5_000, interval: 20 },
      )
      .toBe(start);
    const token = await readToken(gateway, tokenId);
    expect([token.remain_quota, token.used_quota]).toEqual([start - spent, spent]);
  };

  it("creates, polls, downloads and remixes through the official SDK, billing the upstream's seconds once each", async () => {
    const { id: tokenId, client } = await newKey();
    upstream.videos.setTimeline({ queuedPolls: 1, runningPolls: 2 });
    const created = await client.videos.create({
      model: "vid-a-2",
      prompt: "a paper boat",
      seconds: "8",
      size: "1280x720",
    });
    expect(created).toMatchObject({ object: "video", model: "vid-a-2", status: "queued", progress: 0, seconds: "8" });
    expect(created.id).toMatch(/^video_[0-9a-f]{32}$/);
    // Reserved at once: 8 s.
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(10_000_000 - 8 * unitsPerSecond);
    const [upstreamVideo] = upstream.videos.list();
    expect(upstreamVideo).toMatchObject({ model: "sora-2", prompt: "a paper boat", seconds: "8", size: "1280x720" });

    const finished = await waitForStatus(client, created.id, "completed");
    expect(finished).toMatchObject({ progress: 100, seconds: "8", url: `/v1/videos/${created.id}/content` });
    expect(JSON.stringify(finished)).not.toContain(upstreamVideo!.id);
    await expectSpent(tokenId, 10_000_000, 8 * unitsPerSecond);

    const content = await client.videos.downloadContent(created.id);
    expect(content.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await content.arrayBuffer())).toEqual(createFakeMp4("a paper boat"));

    const remix = await client.videos.remix(created.id, { prompt: "at night" });
    expect(remix).toMatchObject({ status: "queued", seconds: "8", remixed_from_video_id: created.id });
    expect(upstream.videos.list()[1]).toMatchObject({ prompt: "at night", remixedFromVideoId: upstreamVideo!.id });
    await waitForStatus(client, remix.id, "completed");
    await expectSpent(tokenId, 10_000_000, 16 * unitsPerSecond);
    // Queries are not billed.
    await client.videos.retrieve(remix.id);
    expect((await readToken(gateway, tokenId)).used_quota).toBe(16 * unitsPerSecond);
  });

  it("refunds a failed task whole and reports why in every form", async () => {
    const { id: tokenId, key, client } = await newKey();
    const created = await client.videos.create({ model: "vid-a-2", prompt: "something [fail]" });
    const failed = await waitForStatus(client, created.id, "failed");
    expect(failed.error).toMatchObject({ code: "moderation_blocked" });
    await expectSpent(tokenId, 10_000_000, 0);
    const wrapped = await readJson(await call(key, `/v1/video/generations/${created.id}`));
    expect(wrapped).toMatchObject({
      code: "success",
      data: {
        id: created.id,
        status: "failed",
        url: null,
        error: { code: "moderation_blocked" },
        metadata: { output: { task_id: created.id, task_status: "FAILED" } },
      },
    });
    const plain = await readJson(await call(key, `/v1/video/generations/${created.id}?format=plain`));
    expect(plain).toMatchObject({ task_id: created.id, status: "failed", format: "mp4", error: { code: 400 } });
    const content = await call(key, `/v1/videos/${created.id}/content`);
    expect(content.status).toBe(409);
    expect((await readJson(content)).error.code).toBe("task_not_completed");
  });

  it("serves the seed's endpoints over plain HTTP: submit, wrapped and plain query, the llm-api variant and download", async () => {
    const { id: tokenId, key } = await newKey();
    const submitted = await call(key, "/v1/video/generations", {
      method: "POST",
      headers: { "x-trace-id": "trace-1" },
      body: JSON.stringify({ model: "vid-a-2", prompt: "rain on a street", seconds: 8, size: "1280x720" }),
    });
    expect(submitted.status).toBe(200);
    const task = await readJson(submitted);
    expect(task).toMatchObject({
      object: "video",
      model: "vid-a-2",
      status: "queued",
      progress: 0,
      metadata: { output: { task_id: task.id, task_status: "PENDING" } },
    });
    expect(typeof task.metadata.request_id).toBe("string");
    await expect
      .poll(async () => (await readJson(await call(key, `/v1/video/generations/${task.id}`))).data.status, {
        timeout: 5_000,
        interval: 20,
      })
      .toBe("completed");
    const wrapped = await readJson(await call(key, `/v1/video/generations/${task.id}`));
    const url = `/v1/videos/${task.id}/content`;
    expect(wrapped).toMatchObject({
      code: "success",
      data: {
        status: "completed",
        progress: 100,
        seconds: "8",
        url,
        video_url: url,
        metadata: {
          output: { task_id: task.id, task_status: "SUCCEEDED", orig_prompt: "rain on a street", video_url: url },
          usage: { SR: 720, duration: 8, video_count: 1 },
          url,
          video_url: url,
        },
      },
    });
    expect(typeof wrapped.data.completed_at).toBe("number");
    expect(await readJson(await call(key, `/v1/video/generations/${task.id}?format=plain`))).toEqual({
      task_id: task.id,
      status: "succeeded",
      format: "mp4",
      url,
    });
    expect(await readJson(await call(key, `/llm-api/v1/video/generations/${task.id}`))).toEqual(wrapped);
    const download = await readJson(await call(key, `/v1/video/generations/download?id=${task.id}`));
    const mp4 = createFakeMp4("rain on a street");
    expect(download).toMatchObject({
      success: true,
      task_id: task.id,
      format: "mp4",
      size: mp4.length,
      base64: mp4.toString("base64"),
      data_url: `data:video/mp4;base64,${mp4.toString("base64")}`,
    });
    expect(download.generation_id).toMatch(/^gen_/);
    await expectSpent(tokenId, 10_000_000, 8 * unitsPerSecond);
  });

  it("shows a task to every key of its user and answers 404 to anyone else", async () => {
    const owner = await newKey();
    const created = await owner.client.videos.create({ model: "vid-a-2", prompt: "mine" });
    const sameUser = await newKey();
    expect((await sameUser.client.videos.retrieve(created.id)).id).toBe(created.id);
    const stranger = await createSignedInUser(gateway);
    const strangerToken = await createTokenForTest(stranger.client, { remain_quota: 1_000_000 });
    const strangerKey = await revealApiKey(stranger.client, strangerToken.id);
    for (const path of [
      `/v1/videos/${created.id}`,
      `/v1/videos/${created.id}/content`,
      `/v1/video/generations/${created.id}`,
      `/llm-api/v1/video/generations/${created.id}`,
      `/v1/video/generations/download?id=${created.id}`,
    ]) {
      const answer = await call(strangerKey, path);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    const remix = await call(strangerKey, `/v1/videos/${created.id}/remix`, {
      method: "POST",
      body: JSON.stringify({ prompt: "steal" }),
    });
    expect(remix.status).toBe(404);
    expect((await call(owner.key, "/v1/videos/video_0000")).status).toBe(404);
  });

  it("checks vid-a-2's fields before any upstream call", async () => {
    const { id: tokenId, key } = await newKey();
    const post = (body: Record<string, unknown>) =>
      call(key, "/v1/videos", { method: "POST", body: JSON.stringify({ model: "vid-a-2", prompt: "p", ...body }) });
    const badSeconds = await post({ seconds: 5 });
    expect(badSeconds.status).toBe(400);
    const badRemix = await call(key, "/v1/video/generations", {
      method: "POST",
      body: JSON.stringify({ model: "vid-a-2", prompt: "p", remix_from_video_id: "abc" }),
    });
    expect(badRemix.status).toBe(400);
    const unknownRemix = await post({ remix_from_video_id: "video_doesnotexist" });
    expect(unknownRemix.status).toBe(404);
    // A private address is refused by the SSRF-safe fetcher.
    const privateReference = await post({ input_reference: "http://127.0.0.1:9/frame.png" });
    expect(privateReference.status).toBe(400);
    expect(upstream.videos.list()).toHaveLength(0);
    expect((await readToken(gateway, tokenId)).used_quota).toBe(0);
    expect((await readToken(gateway, tokenId)).remain_quota).toBe(10_000_000);
  });

  it("sends a base64 input_reference (JSON) and a file part (SDK multipart) upstream as a file", async () => {
    const { key, client } = await newKey();
    const png = createTinyPng(2, 2, [9, 9, 9]);
    const json = await call(key, "/v1/videos", {
      method: "POST",
      body: JSON.stringify({ model: "vid-a-2", prompt: "from base64", input_reference: png.toString("base64") }),
    });
    expect(json.status).toBe(200);
    await client.videos.create({
      model: "vid-a-2",
      prompt: "from a file",
      input_reference: await toFile(png, "first.png", { type: "image/png" }),
    });
    expect(upstream.videos.list().map((video) => video.inputReference)).toEqual([
      { name: "reference.png", type: "image/png", size: png.length },
      { name: "first.png", type: "image/png", size: png.length },
    ]);
  });

  it("keeps polling through 429s, fails a task the upstream lost, and refunds a refused submission", async () => {
    const { id: tokenId, client } = await newKey();
    const slow = await client.videos.create({ model: "vid-a-2", prompt: "busy upstream" });
    upstream.videos.failRetrieves(429, 3);
    await waitForStatus(client, slow.id, "completed");
    const lost = await client.videos.create({ model: "vid-a-2", prompt: "lost" });
    upstream.videos.vanish(upstream.videos.list()[1]!.id);
    const failed = await waitForStatus(client, lost.id, "failed");
    expect(failed.error).toMatchObject({ code: "upstream_task_not_found" });
    upstream.videos.failCreates(500, 1);
    await expect(client.videos.create({ model: "vid-a-2", prompt: "refused" })).rejects.toMatchObject({ status: 502 });
    // One 4 s video billed; the lost one and the refused one refunded.
    await expectSpent(tokenId, 10_000_000, 4 * unitsPerSecond);
  });

  it("answers an idempotent resubmission with the same task and charges once; a different body is 409", async () => {
    const { id: tokenId, key } = await newKey();
    const submit = (body: Record<string, unknown>) =>
      call(key, "/v1/video/generations", {
        method: "POST",
        headers: { "idempotency-key": "retry-me" },
        body: JSON.stringify({ model: "vid-a-2", prompt: "once", ...body }),
      });
    const first = await readJson(await submit({}));
    const second = await readJson(await submit({}));
    expect(second.id).toBe(first.id);
    expect(upstream.videos.list()).toHaveLength(1);
    const conflict = await submit({ seconds: 8 });
    expect(conflict.status).toBe(409);
    expect((await readJson(conflict)).error.code).toBe("idempotency_key_reused");
    await expectSpent(tokenId, 10_000_000, 4 * unitsPerSecond);
  });

  it("lets exactly 20 of 50 concurrent submissions through when the quota covers 20", async () => {
    const { id: tokenId, key } = await newKey(20 * 4 * unitsPerSecond);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        call(key, "/v1/video/generations", {
          method: "POST",
          body: JSON.stringify({ model: "vid-a-2", prompt: `race ${index}` }),
        }).then(async (answer) => {
          await answer.arrayBuffer();
          return answer.status;
        }),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 402)).toBe(true);
    expect(upstream.videos.list()).toHaveLength(20);
    await expect
      .poll(() => upstream.videos.list().filter((video) => video.completedAt !== null).length, { timeout: 5_000 })
      .toBe(20);
    await expectSpent(tokenId, 20 * 4 * unitsPerSecond, 20 * 4 * unitsPerSecond);
  });
});
