import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callFakeNative } from "./call-fake-native.js";
import type { FakeNativeUpstream } from "./fake-native-types.js";
import { startFakeNativeServer } from "./start-fake-native-server.js";

let upstream: FakeNativeUpstream;
beforeAll(async () => {
  upstream = await startFakeNativeServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const path = "/v1beta/models/gmx-2.5-flash:generateContent";
const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

describe("faults", () => {
  it("status with retryAfterSeconds answers the native envelope with RetryInfo and Retry-After, for `times` requests", async () => {
    upstream.setFaults({ status: 429, retryAfterSeconds: 7, times: 2 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { status, headers, json } = await callFakeNative(upstream.url, path, body);
      expect(status).toBe(429);
      expect(headers.get("retry-after")).toBe("7");
      expect(json).toEqual({
        error: {
          code: 429,
          message: "Resource has been exhausted (e.g. check quota).",
          status: "RESOURCE_EXHAUSTED",
          details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }],
        },
      });
    }
    expect((await callFakeNative(upstream.url, path, body)).status).toBe(200);
    expect(upstream.requests).toHaveLength(3);
  });

  it("status without retry uses the default envelope; a custom body is sent verbatim", async () => {
    upstream.setFaults({ status: 503 });
    expect((await callFakeNative(upstream.url, path, body)).json).toEqual({
      error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" },
    });
    upstream.setFaults({ status: 500, body: { error: { code: 500, message: "boom", status: "INTERNAL" } } });
    expect((await callFakeNative(upstream.url, path, body)).json.error.message).toBe("boom");
  });

  it("latencyMs delays the answer", async () => {
    upstream.setFaults({ latencyMs: 150 });
    const started = Date.now();
    expect((await callFakeNative(upstream.url, path, body)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("resetBeforeHeaders breaks the connection before any byte, and is not recorded as a client abort", async () => {
    upstream.setFaults({ resetBeforeHeaders: true, times: 1 });
    await expect(callFakeNative(upstream.url, path, body)).rejects.toThrow();
    expect(upstream.requests[0]!.aborted).toBe(false);
    expect(upstream.requests[0]!.query).toEqual({});
    expect((await callFakeNative(upstream.url, path, body)).status).toBe(200);
  });

  it("resetMidStreamAfterChunks 0 on a JSON answer sends headers, then breaks the body", async () => {
    upstream.setFaults({ resetMidStreamAfterChunks: 0 });
    const response = await fetch(`${upstream.url}${path}`, { method: "POST", body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it("a per-request x-fake-fault header overrides the plan", async () => {
    const { status } = await callFakeNative(upstream.url, path, body, {
      "x-fake-fault": JSON.stringify({ status: 500 }),
    });
    expect(status).toBe(500);
  });

  it("reset() clears requests and faults", async () => {
    upstream.setFaults({ status: 500 });
    await callFakeNative(upstream.url, path, body);
    upstream.reset();
    expect(upstream.requests).toHaveLength(0);
    expect((await callFakeNative(upstream.url, path, body)).status).toBe(200);
  });
});
