import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const upstreamKey = "provider-upstream-key-0123456789";

interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

/**
 * The channel test of ark and dashscope only needs an upstream that checks the Bearer key on the two reads the
 * adapters use (their full fakes come with their image capabilities, in mocks/upstreams/<type>/).
 */
async function startKeyCheckingUpstream(): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ method: request.method ?? "", url: request.url ?? "", authorization: request.headers.authorization });
    response.setHeader("content-type", "application/json");
    if (request.headers.authorization !== `Bearer ${upstreamKey}`) {
      response.statusCode = 401;
      response.end(JSON.stringify({ code: "InvalidApiKey", message: "Invalid API-key provided." }));
      return;
    }
    response.end(JSON.stringify({ total: 0, items: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDatabases)("ark and dashscope channel types on $name", ({ database }) => {
  let upstream: Awaited<ReturnType<typeof startKeyCheckingUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    upstream = await startKeyCheckingUpstream();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          { name: "ark-main", type: "ark", base_url: upstream.url, key: upstreamKey, models: ["img-b-4-0-250828"] },
          { name: "ds-main", type: "dashscope", base_url: upstream.url, key: upstreamKey, models: ["img-d-plus"] },
        ],
        pricing: { "img-b-4-0-250828": { per_image: 0.03 }, "img-d-plus": { per_image: 0.02 } },
      },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.seen.length = 0;
  });

  const channelIdOf = async (name: string) => {
    const list = await gateway.client.management.GET("/api/channel/", { params: { query: { p: 1, size: 50 } } });
    return list.data!.data.items.find((channel) => channel.name === name)!.id;
  };
  const testChannel = (id: number) =>
    gateway.client.management.POST("/api/channel/{id}/test", { params: { path: { id } }, body: {} });

  it("accepts both types from the config file and tests them with a read that proves the Bearer key", async () => {
    const ark = await testChannel(await channelIdOf("ark-main"));
    expect(ark.data!.data).toMatchObject({ success: true, model: "img-b-4-0-250828", message: "" });
    const dashscope = await testChannel(await channelIdOf("ds-main"));
    expect(dashscope.data!.data).toMatchObject({ success: true, model: "img-d-plus", message: "" });
    expect(upstream.seen).toEqual([
      {
        method: "GET",
        url: "/api/v3/contents/generations/tasks?page_num=1&page_size=1",
        authorization: `Bearer ${upstreamKey}`,
      },
      { method: "GET", url: "/api/v1/tasks/gateway-channel-test", authorization: `Bearer ${upstreamKey}` },
    ]);
  });

  it("accepts an ark channel from the admin API and reports a refused key without echoing it", async () => {
    const wrongKey = "wrong-provider-key-9876543210";
    const created = await gateway.client.management.POST("/api/channel/", {
      body: { name: "ark-admin", type: "ark", base_url: upstream.url, key: wrongKey, models: ["img-b-4-0-250828"] },
    });
    expect(created.response.status).toBe(200);
    expect(created.data!.data.type).toBe("ark");
    const result = await testChannel(created.data!.data.id);
    expect(result.data!.data).toMatchObject({ success: false, model: "img-b-4-0-250828" });
    expect(result.data!.data.message).toBe("upstream answered 401: Invalid API-key provided.");
    expect(JSON.stringify(result.data)).not.toContain(wrongKey);
  });

  it("never plans an ark channel for a capability its adapter lacks (chat)", async () => {
    const { key } = await createApiKey(gateway, { remainQuota: 1_000_000 });
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: "img-b-4-0-250828", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("no_available_channel");
    expect(upstream.seen).toEqual([]);
  });
});
