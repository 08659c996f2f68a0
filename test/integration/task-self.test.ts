import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeOpenaiUpstream,
  startFakeOpenaiServer,
} from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { insertTask } from "../../src/store/tasks/insert-task.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { videoGatewayConfig, videoUnitsPerSecond } from "../support/video-gateway-config.js";

const testDatabases = await openTestDatabases();

/** GET /api/task/self: the caller's video tasks, with the gateway's own result path, and no one else's. */
describe.each(testDatabases)("task list on $name", ({ database }) => {
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

  it("lists a vid-a-2 task of the caller with status, quota and result path, and none to another user", async () => {
    const owner = await createSignedInUser(gateway);
    const token = await createTokenForTest(owner.client, { remain_quota: 10_000_000 });
    const client = new OpenAI({
      apiKey: await revealApiKey(owner.client, token.id),
      baseURL: `${gateway.url}/v1`,
      maxRetries: 0,
    });
    const created = await client.videos.create({ model: "vid-a-2", prompt: "a lighthouse", seconds: "4" });
    await expect
      .poll(async () => (await client.videos.retrieve(created.id)).status, { timeout: 5_000, interval: 20 })
      .toBe("completed");

    const listed = await owner.client.management.GET("/api/task/self", { params: { query: { status: "completed" } } });
    expect(listed.data).toMatchObject({
      success: true,
      data: {
        total: 1,
        page: 1,
        page_size: 20,
        items: [
          {
            task_id: created.id,
            model: "vid-a-2",
            status: "completed",
            progress: 100,
            seconds: 4,
            quota: 4 * videoUnitsPerSecond,
            result_url: `/v1/videos/${created.id}/content`,
          },
        ],
      },
    });
    const [item] = listed.data!.data.items;
    expect(item!.completed_at).toBeGreaterThanOrEqual(item!.created_at);
    expect(JSON.stringify(listed.data)).not.toContain(upstream.videos.list()[0]!.id);

    const queued = await owner.client.management.GET("/api/task/self", { params: { query: { status: "queued" } } });
    expect(queued.data?.data).toMatchObject({ items: [], total: 0 });
    const otherModel = await owner.client.management.GET("/api/task/self", { params: { query: { model: "vid-b-1" } } });
    expect(otherModel.data?.data.total).toBe(0);

    const stranger = await createSignedInUser(gateway);
    const strangers = await stranger.client.management.GET("/api/task/self");
    expect(strangers.data?.data).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
  });

  it("rejects a status outside the spec and an unauthenticated call", async () => {
    const owner = await createSignedInUser(gateway);
    const wrong = await fetch(`${gateway.url}/api/task/self?status=done`, {
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ success: false });
    const anonymous = await fetch(`${gateway.url}/api/task/self`);
    expect(anonymous.status).toBe(401);
  });

  it("counts every user's tasks in flight for administrators only (GET /api/task/stat)", async () => {
    const administrator = await createSignedInUser(gateway, { role: "admin" });
    const owner = await createSignedInUser(gateway);
    const stranger = await createSignedInUser(gateway);
    const stat = (client: typeof owner.client) => client.management.GET("/api/task/stat");
    expect((await stat(owner.client)).response.status).toBe(403);
    const before = (await stat(administrator.client)).data!.data;

    // Tasks written straight into the store and never due, so the poller leaves them as they are.
    const { db } = gateway.gateway.context.database;
    const tokenId = (await createTokenForTest(owner.client)).id;
    const strangerTokenId = (await createTokenForTest(stranger.client)).id;
    const neverDue = Date.now() + 3_600_000;
    const oldest = 1_000;
    for (const [index, userId, token, status, createdTime] of [
      [1, owner.user.id, tokenId, "queued", oldest + 20],
      [2, owner.user.id, tokenId, "in_progress", oldest + 10],
      [3, stranger.user.id, strangerTokenId, "in_progress", oldest],
      [4, stranger.user.id, strangerTokenId, "completed", 1],
      [5, owner.user.id, tokenId, "failed", 2],
    ] as const) {
      await insertTask(db, {
        id: `video_inflightcount${index}${Math.random().toString(36).slice(2)}`,
        userId,
        tokenId: token,
        model: "vid-a-2",
        status,
        createdTime,
        nextPollAt: neverDue,
      });
    }
    const after = await stat(administrator.client);
    expect(after.response.status).toBe(200);
    expect(after.data!.data).toEqual({
      queued: before.queued + 1,
      in_progress: before.in_progress + 2,
      oldest_created_at: oldest,
    });
  });
});
