import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

// A Claude channel reports prompt tokens read from its cache and written to it apart; the usage log keeps them
// apart too, in the user's log, the administrators' detail and the statistics.
describe.each(testDatabases)("cache reads and writes in the usage log on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let key: string;

  beforeAll(async () => {
    upstream = await startFakeAnthropicServer({ apiKey: "sk-ant-cache" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "claude-cache",
            type: "anthropic",
            base_url: upstream.url,
            key: "sk-ant-cache",
            models: ["claude-a"],
          },
        ],
        pricing: { "claude-a": { input: 2, output: 4, cached_input: 1 } },
      },
    });
    key = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const cachedMessage = async () => {
    const answer = await fetch(`${gateway.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-a",
        max_tokens: 10,
        system: [{ type: "text", text: "a long shared preamble of six words", cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    return answer.headers.get("x-request-id")!;
  };

  it("records the cache write of the first request and the cache read of the second, apart", async () => {
    const written = await cachedMessage();
    const read = await cachedMessage();
    const own = (await gateway.client.management.GET("/api/log/self", { params: { query: {} } })).data!.data.items;
    const byRequest = new Map(own.map((row) => [row.request_id, row]));
    // The fake caches the 7 tokens of the system block: written by the first request, read by the second.
    expect(byRequest.get(written)).toMatchObject({ prompt_tokens: 11, cached_tokens: 0, cache_write_tokens: 7 });
    expect(byRequest.get(read)).toMatchObject({ prompt_tokens: 11, cached_tokens: 7, cache_write_tokens: 0 });

    const detail = await gateway.client.management.GET("/api/log/{id}", {
      params: { path: { id: byRequest.get(written)!.id } },
    });
    expect(detail.data!.data).toMatchObject({ channel_name: "claude-cache", cache_write_tokens: 7, group: "default" });
    const statistics = await gateway.client.management.GET("/api/log/stat", { params: { query: {} } });
    expect(statistics.data!.data.totals).toMatchObject({ requests: 2, cached_tokens: 7, cache_write_tokens: 7 });
  });
});
