import { errors, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { closeUpstreamDispatchers, getUpstreamDispatcher } from "./get-upstream-dispatcher.js";

const upstream = await startFakeOpenaiServer();
afterAll(async () => {
  await closeUpstreamDispatchers();
  await upstream.close();
});

const timeouts = { connectMs: 1000, headerMs: 2000, idleMs: 3000 };

describe("getUpstreamDispatcher", () => {
  it("keeps one pool per channel and rebuilds it when the channel changes", async () => {
    const first = getUpstreamDispatcher({ id: 1, baseUrl: upstream.url, timeouts });
    expect(getUpstreamDispatcher({ id: 1, baseUrl: upstream.url, timeouts: { ...timeouts } })).toBe(first);
    expect(getUpstreamDispatcher({ id: 2, baseUrl: upstream.url, timeouts })).not.toBe(first);

    const retimed = getUpstreamDispatcher({ id: 1, baseUrl: upstream.url, timeouts: { ...timeouts, idleMs: 10 } });
    expect(retimed).not.toBe(first);
    expect(first.closed).toBe(true);
    const moved = getUpstreamDispatcher({
      id: 1,
      baseUrl: `${upstream.url}/prefix`,
      timeouts: { ...timeouts, idleMs: 10 },
    });
    expect(moved).not.toBe(retimed);
    expect(retimed.closed).toBe(true);

    await closeUpstreamDispatchers();
    expect(moved.closed).toBe(true);
    expect(getUpstreamDispatcher({ id: 1, baseUrl: `${upstream.url}/prefix`, timeouts })).not.toBe(moved);
  });

  it("reuses the keep-alive connection and applies the header timeout", async () => {
    const channel = { id: 3, baseUrl: upstream.url, timeouts: { ...timeouts, headerMs: 150 } };
    for (let call = 0; call < 3; call += 1) {
      const response = await request(`${upstream.url}/v1/models`, { dispatcher: getUpstreamDispatcher(channel) });
      expect(response.statusCode).toBe(200);
      await response.body.text();
      // The socket returns to the pool once the response's end has been processed, a tick after the body resolves.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(getUpstreamDispatcher(channel).stats.connected).toBe(1);

    // undici checks its timers on a coarse (about half-second) tick, so the delay must clearly exceed it.
    upstream.setFaults({ latencyMs: 1500, times: 1 });
    await expect(
      request(`${upstream.url}/v1/models`, { dispatcher: getUpstreamDispatcher(channel) }),
    ).rejects.toBeInstanceOf(errors.HeadersTimeoutError);
  });
});
