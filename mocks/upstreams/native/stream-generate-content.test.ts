import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSafetyRatings } from "./build-safety-ratings.js";
import { callFakeNative } from "./call-fake-native.js";
import type { FakeNativeUpstream } from "./fake-native-types.js";
import { startFakeNativeServer } from "./start-fake-native-server.js";

let upstream: FakeNativeUpstream;
beforeAll(async () => {
  upstream = await startFakeNativeServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const streamPath = (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`;

/** Splits on the CRLF CRLF framing the real API uses; fails if anything else frames the events. */
function parseFragments(text: string): any[] {
  expect(text.endsWith("\r\n\r\n")).toBe(true);
  return text
    .slice(0, -4)
    .split("\r\n\r\n")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return JSON.parse(event.slice(6));
    });
}

describe("streamGenerateContent?alt=sse", () => {
  it("streams thoughts then text word by word, with growing usage, finishReason last and no [DONE]", async () => {
    const { status, headers, text } = await callFakeNative(upstream.url, streamPath("gmx-2.5-flash"), {
      contents: [user("hi you")],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("text/event-stream");
    expect(text).not.toContain("[DONE]");
    const fragments = parseFragments(text);
    const { responseId, createTime } = fragments[0];
    const usage = (candidates: number, thoughts: number) => ({
      promptTokenCount: 4,
      ...(candidates > 0 ? { candidatesTokenCount: candidates } : {}),
      totalTokenCount: 4 + candidates + thoughts,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 4 }],
      ...(candidates > 0 ? { candidatesTokensDetails: [{ modality: "TEXT", tokenCount: candidates }] } : {}),
      thoughtsTokenCount: thoughts,
    });
    const fragment = (part: object, candidates: number, thoughts: number, last = false) => ({
      candidates: [
        {
          content: { parts: [part], role: "model" },
          ...(last ? { finishReason: "STOP" } : {}),
          index: 0,
          ...(last ? { safetyRatings: buildSafetyRatings() } : {}),
        },
      ],
      usageMetadata: usage(candidates, thoughts),
      modelVersion: "gmx-2.5-flash",
      responseId,
      createTime,
    });
    expect(fragments).toEqual([
      fragment({ text: "Thinking", thought: true }, 0, 1),
      fragment({ text: " about", thought: true }, 0, 2),
      fragment({ text: " hi", thought: true }, 0, 3),
      fragment({ text: " you", thought: true }, 0, 4),
      fragment({ text: "Echo:" }, 1, 4),
      fragment({ text: " hi" }, 2, 4),
      fragment({ text: " you" }, 3, 4, true),
    ]);
  });

  it("sends a functionCall in one fragment", async () => {
    const { text } = await callFakeNative(upstream.url, streamPath("gmx-2.5-flash"), {
      contents: [user("Rome")],
      tools: [
        {
          functionDeclarations: [
            { name: "get_weather", parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } } },
          ],
        },
      ],
    });
    const fragments = parseFragments(text);
    expect(fragments).toHaveLength(1);
    expect(fragments[0].candidates[0]).toEqual({
      content: { parts: [{ functionCall: { name: "get_weather", args: { city: "Rome" } } }], role: "model" },
      finishReason: "STOP",
      index: 0,
      safetyRatings: buildSafetyRatings(),
    });
    expect(fragments[0].usageMetadata.candidatesTokenCount).toBe(3);
  });

  it("counts hidden thoughts from the first fragment and ends a [block] stream with one fragment", async () => {
    const hidden = parseFragments(
      (
        await callFakeNative(upstream.url, streamPath("gmx-2.5-flash"), {
          contents: [user("a b")],
          generationConfig: { thinkingConfig: {} },
        })
      ).text,
    );
    expect(hidden.map((fragment) => fragment.usageMetadata.thoughtsTokenCount)).toEqual([4, 4, 4]);
    const blocked = parseFragments(
      (await callFakeNative(upstream.url, streamPath("gmx-2.5-flash"), { contents: [user("[block]")] })).text,
    );
    expect(blocked).toHaveLength(1);
    expect(blocked[0].promptFeedback.blockReason).toBe("SAFETY");
  });

  it("answers validation errors as a JSON envelope before any stream starts", async () => {
    const { status, headers, json } = await callFakeNative(upstream.url, streamPath("gmx-2.5-flash"), { contents: [] });
    expect(status).toBe(400);
    expect(headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(json.error.message).toBe("contents is required");
  });

  it("streams a JSON array without alt=sse", async () => {
    const { text, json } = await callFakeNative(upstream.url, "/v1beta/models/gmx-2.5-flash:streamGenerateContent", {
      contents: [user("x y")],
    });
    expect(text.startsWith("[{")).toBe(true);
    expect(json.map((fragment: any) => fragment.candidates[0].content.parts[0].text).join("")).toBe("Echo: x y");
  });
});

describe("stream faults", () => {
  const body = { contents: [user("one two three four")] };

  it("resetMidStreamAfterChunks delivers that many fragments, then the connection breaks", async () => {
    upstream.setFaults({ resetMidStreamAfterChunks: 2 });
    const response = await fetch(`${upstream.url}${streamPath("gmx-2.5-flash")}`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = "";
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          received += Buffer.from(value).toString("utf8");
        }
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    expect(received.split("\r\n\r\n").filter(Boolean)).toHaveLength(2);
    expect(upstream.requests[0]!.aborted).toBe(false);
  });

  it("stallAfterChunks stops sending; a client abort is recorded as aborted", async () => {
    upstream.setFaults({ stallAfterChunks: 1 });
    const controller = new AbortController();
    const response = await fetch(`${upstream.url}${streamPath("gmx-2.5-flash")}`, {
      method: "POST",
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString("utf8")).toMatch(/^data: .*"Echo:"/);
    const next = await Promise.race([
      reader.read(),
      new Promise((resolve) => setTimeout(() => resolve("stalled"), 200)),
    ]);
    expect(next).toBe("stalled");
    controller.abort();
    await expect.poll(() => upstream.requests[0]!.aborted).toBe(true);
  });

  it("chunkDelayMs spaces the fragments", async () => {
    upstream.setFaults({ chunkDelayMs: 40 });
    const started = Date.now();
    const { text } = await callFakeNative(upstream.url, streamPath("gmx-2.5-flash"), body);
    expect(parseFragments(text)).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 40 - 10);
  });
});
