import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { parseSseTranscript } from "../shared/parse-sse-transcript.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";
import { readJson } from "../shared/read-json.js";

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const chatBody = { model: "gpt-4o-mini", messages: [{ role: "user", content: "one two three four" }] };

function postChat(body: object, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}) {
  return fetch(`${upstream.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}

/** Reads a body until it ends or breaks; returns what arrived and the error, if any. */
async function readUntilBroken(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

/** Reads until `count` complete SSE events arrived, leaving the stream open. */
async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (text.split("\n\n").length - 1 < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("fault injection", () => {
  it("answers an injected status with Retry-After and OpenAI's envelope", async () => {
    upstream.setFaults({ status: 429, retryAfterSeconds: 7 });
    const response = await postChat(chatBody);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(await readJson(response)).toEqual({
      error: {
        message: "Rate limit reached for requests. Please try again later.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    });
  });

  it("sends a custom error body verbatim", async () => {
    upstream.setFaults({
      status: 500,
      body: { error: { message: "boom", type: "server_error", param: null, code: null } },
    });
    const response = await postChat(chatBody);
    expect(response.status).toBe(500);
    expect(await readJson(response)).toEqual({
      error: { message: "boom", type: "server_error", param: null, code: null },
    });
  });

  it("applies a fault only `times` times, and until reset without it", async () => {
    upstream.setFaults({ status: 503, times: 2 });
    expect((await postChat(chatBody)).status).toBe(503);
    expect((await postChat(chatBody)).status).toBe(503);
    expect((await postChat(chatBody)).status).toBe(200);
    upstream.setFaults({ status: 502 });
    expect((await postChat(chatBody)).status).toBe(502);
    expect((await postChat(chatBody)).status).toBe(502);
    upstream.reset();
    expect(upstream.requests).toHaveLength(0);
    expect((await postChat(chatBody)).status).toBe(200);
  });

  it("delays the headers by latencyMs", async () => {
    upstream.setFaults({ latencyMs: 150 });
    const started = performance.now();
    const response = await postChat(chatBody);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(200);
  });

  it("resets the socket before headers: fetch rejects and the record is not marked aborted", async () => {
    upstream.setFaults({ resetBeforeHeaders: true, times: 1 });
    await expect(postChat(chatBody)).rejects.toThrow(TypeError);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0].aborted).toBe(false);
    expect((await postChat(chatBody)).status).toBe(200);
  });

  it("resets mid-stream after N chunks", async () => {
    upstream.setFaults({ resetMidStreamAfterChunks: 3 });
    const response = await postChat({ ...chatBody, stream: true });
    expect(response.status).toBe(200);
    const { text, error } = await readUntilBroken(response);
    expect(error).toBeInstanceOf(TypeError);
    const events = parseSseTranscript(text);
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[2].data).choices[0].delta).toEqual({ content: " one" });
    expect(upstream.requests[0].aborted).toBe(false);
  });

  it("stalls after N chunks until the client aborts, and records the abort", async () => {
    upstream.setFaults({ stallAfterChunks: 2 });
    const controller = new AbortController();
    const response = await postChat({ ...chatBody, stream: true }, { signal: controller.signal });
    const reader = response.body!.getReader();
    expect(parseSseTranscript(await readEvents(reader, 2))).toHaveLength(2);
    const nextRead = reader.read();
    const outcome = await Promise.race([
      nextRead.then(() => "data"),
      new Promise((resolve) => setTimeout(() => resolve("stalled"), 200)),
    ]);
    expect(outcome).toBe("stalled");
    expect(upstream.requests[0].aborted).toBe(false);
    controller.abort();
    await expect(nextRead).rejects.toThrow();
    await vi.waitFor(() => expect(upstream.requests[0].aborted).toBe(true));
  });

  it("spaces chunks by chunkDelayMs", async () => {
    upstream.setFaults({ chunkDelayMs: 30 });
    const started = performance.now();
    const response = await postChat({ ...chatBody, stream: true });
    const events = parseSseTranscript(await response.text());
    // role + 5 words + finish + [DONE]
    expect(events).toHaveLength(8);
    expect(performance.now() - started).toBeGreaterThanOrEqual(8 * 30 - 10);
  });

  it("sends headers and then breaks or stalls a non-streaming body when the chunk count is 0", async () => {
    upstream.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    const broken = await postChat(chatBody);
    expect(broken.status).toBe(200);
    await expect(broken.text()).rejects.toThrow(TypeError);

    upstream.setFaults({ stallAfterChunks: 0, times: 1 });
    const controller = new AbortController();
    const stalled = await postChat(chatBody, { signal: controller.signal });
    expect(Number(stalled.headers.get("content-length"))).toBeGreaterThan(0);
    const body = stalled.text();
    controller.abort();
    await expect(body).rejects.toThrow();
    await vi.waitFor(() => expect(upstream.requests[1].aborted).toBe(true));
  });

  it("records a client abort during latency", async () => {
    upstream.setFaults({ latencyMs: 300 });
    const controller = new AbortController();
    const pending = postChat(chatBody, { signal: controller.signal });
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() => expect(upstream.requests[0].aborted).toBe(true));
  });

  it("takes a per-request plan from x-fake-fault without consuming the programmatic one", async () => {
    upstream.setFaults({ status: 500, times: 1 });
    const viaHeader = await postChat(chatBody, { headers: { "x-fake-fault": JSON.stringify({ status: 418 }) } });
    expect(viaHeader.status).toBe(418);
    expect((await postChat(chatBody)).status).toBe(500);
    expect((await postChat(chatBody)).status).toBe(200);
    const malformed = await postChat(chatBody, { headers: { "x-fake-fault": "{oops" } });
    expect(malformed.status).toBe(400);
    expect((await readJson(malformed)).error.message).toBe("x-fake-fault must be a JSON object");
  });
});
