import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeMp4 } from "../../mocks/upstreams/openai/create-fake-mp4.js";
import {
  type FakeOpenaiUpstream,
  startFakeOpenaiServer,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser, type SignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { videoGatewayConfig, videoUnitsPerSecond } from "../support/video-gateway-config.js";

const testDatabases = await openTestDatabases();

/**
 * GET /api/task/self/{task_id}/content: the console's download of a finished video with the user access token
 * (no API key), the same bytes `/v1/videos/{id}/content` serves, for the owner only, and never billed.
 */
describe.each(testDatabases)("task download on $name", ({ database }) => {
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

  const userWithKey = async () => {
    const user = await createSignedInUser(gateway);
    const token = await createTokenForTest(user.client, { remain_quota: 10_000_000 });
    const client = new OpenAI({
      apiKey: await revealApiKey(user.client, token.id),
      baseURL: `${gateway.url}/v1`,
      maxRetries: 0,
    });
    return { user, tokenId: token.id, client };
  };
  const download = (user: SignedInUser, taskId: string) =>
    fetch(`${gateway.url}/api/task/self/${encodeURIComponent(taskId)}/content`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
  const readBalance = async (user: SignedInUser, tokenId: number) => {
    const token = (await user.client.management.GET("/api/token/{id}", { params: { path: { id: tokenId } } })).data;
    const logs = (await user.client.management.GET("/api/log/self")).data;
    return { remain: token?.data.remain_quota, used: token?.data.used_quota, logs: logs?.data.total };
  };

  it("streams the owner's completed video with its type and length, lists where, and bills nothing", async () => {
    const { user, tokenId, client } = await userWithKey();
    const created = await client.videos.create({ model: "vid-a-2", prompt: "a lighthouse", seconds: "4" });
    await expect
      .poll(async () => (await client.videos.retrieve(created.id)).status, { timeout: 5_000, interval: 20 })
      .toBe("completed");
    await expect.poll(async () => (await readBalance(user, tokenId)).used).toBe(4 * videoUnitsPerSecond);

    const listed = await user.client.management.GET("/api/task/self");
    expect(listed.data?.data.items[0]).toMatchObject({
      task_id: created.id,
      download_url: `/api/task/self/${created.id}/content`,
    });
    const before = await readBalance(user, tokenId);

    const answer = await download(user, created.id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(bytes).toEqual(createFakeMp4("a lighthouse"));
    expect(answer.headers.get("content-length")).toBe(String(bytes.length));
    // The typed client reaches it too (the console's way), as a Blob.
    const viaClient = await user.client.management.GET("/api/task/self/{task_id}/content", {
      params: { path: { task_id: created.id } },
      parseAs: "blob",
    });
    expect(Buffer.from(await (viaClient.data as Blob).arrayBuffer())).toEqual(bytes);

    expect(await readBalance(user, tokenId)).toEqual(before);
  });

  it("answers 404 for another user's task and an unknown id, 409 while queued, in the /api envelope", async () => {
    const { user, tokenId, client } = await userWithKey();
    upstream.videos.setTimeline({ queuedPolls: 1_000_000 });
    const queued = await client.videos.create({ model: "vid-a-2", prompt: "a slow sunrise", seconds: "4" });
    const before = await readBalance(user, tokenId);

    const early = await download(user, queued.id);
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual({
      success: false,
      message: `Task ${queued.id} is queued; download it once it is completed.`,
    });

    const stranger = await createSignedInUser(gateway);
    const foreign = await download(stranger, queued.id);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ success: false, message: `No video task ${queued.id}.` });
    const unknown = await download(user, "video_missing");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false });
    const anonymous = await fetch(`${gateway.url}/api/task/self/${queued.id}/content`);
    expect(anonymous.status).toBe(401);

    const listed = await user.client.management.GET("/api/task/self");
    expect(listed.data?.data.items[0]).toMatchObject({ task_id: queued.id, download_url: null });
    expect(await readBalance(user, tokenId)).toEqual(before);
  });
});
