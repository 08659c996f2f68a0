import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { createCollectingController } from "../../../upstream/create-collecting-controller.js";
import { createNativeUsageObserverTransform } from "./create-native-usage-observer-transform.js";

const readFixture = (name: string) => new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));

async function observe(bytes: Uint8Array, pieceSize: number): Promise<{ output: Uint8Array; reports: MeteredUsage[] }> {
  const reports: MeteredUsage[] = [];
  const upstream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let start = 0; start < bytes.length; start += pieceSize)
        controller.enqueue(bytes.slice(start, start + pieceSize));
      controller.close();
    },
  });
  const pieces: Uint8Array[] = [];
  for await (const piece of upstream.pipeThrough(
    new TransformStream(createNativeUsageObserverTransform((usage) => reports.push(usage))),
  ) as unknown as AsyncIterable<Uint8Array>)
    pieces.push(piece);
  return { output: new Uint8Array(Buffer.concat(pieces)), reports };
}

describe("createNativeUsageObserverTransform", () => {
  it("skips an SSE event longer than its limit and reads the usage of the events after it", () => {
    const reports: MeteredUsage[] = [];
    const observer = createNativeUsageObserverTransform((usage) => reports.push(usage), 64);
    const collected = createCollectingController<Uint8Array>();
    const usage = (candidates: number) =>
      `data: ${JSON.stringify({ usageMetadata: { promptTokenCount: 3, candidatesTokenCount: candidates, totalTokenCount: 3 + candidates } })}\r\n\r\n`;
    const reads = [
      usage(1),
      `data: {"candidates":[{"content":{"parts":[{"text":"${"x".repeat(50)}`,
      `${"x".repeat(50)}"}]}}]}\r\n\r\n`,
      usage(9),
    ];
    for (const read of reads) observer.transform(new TextEncoder().encode(read), collected.controller);
    observer.flush?.(collected.controller);
    expect(Buffer.concat(collected.take()).toString()).toBe(reads.join(""));
    expect(reports).toEqual([{ promptTokens: 3, completionTokens: 9, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it.each([1, 7, 100_000])(
    "passes SSE bytes through unchanged (reads of %i bytes) and reports the last usage once",
    async (pieceSize) => {
      const bytes = readFixture("stream-thinking.chunks.txt");
      const { output, reports } = await observe(bytes, pieceSize);
      expect(output).toEqual(bytes);
      expect(reports).toEqual([{ promptTokens: 12, completionTokens: 142, cachedTokens: 0, reasoningTokens: 131 }]);
    },
  );

  it("reads usage from an image stream with lowercase modality names", async () => {
    const { reports } = await observe(readFixture("stream-image.chunks.txt"), 13);
    expect(reports).toEqual([
      { promptTokens: 9, completionTokens: 1294, cachedTokens: 0, reasoningTokens: 0, imageOutputTokens: 1290 },
    ]);
  });

  it("skips a malformed fragment without touching the bytes", async () => {
    const bytes = readFixture("stream-malformed.chunks.txt");
    const { output, reports } = await observe(bytes, 3);
    expect(output).toEqual(bytes);
    expect(reports).toEqual([{ promptTokens: 6, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("reads the JSON array format (no alt=sse)", async () => {
    const fragments = [
      {
        candidates: [{ content: { parts: [{ text: "a" }], role: "model" } }],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 1 },
      },
      {
        candidates: [{ content: { parts: [{ text: "b" }], role: "model" }, finishReason: "STOP" }],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, thoughtsTokenCount: 3 },
      },
    ];
    const text = `[${fragments.map((fragment) => JSON.stringify(fragment, null, 2)).join(",\r\n")}]`;
    const { reports } = await observe(new TextEncoder().encode(text), 5);
    expect(reports).toEqual([{ promptTokens: 4, completionTokens: 5, cachedTokens: 0, reasoningTokens: 3 }]);
  });

  it("reports what it saw, once, when the client cancels mid-stream", async () => {
    const reports: MeteredUsage[] = [];
    const transform = new TransformStream(createNativeUsageObserverTransform((usage) => reports.push(usage)));
    const bytes = readFixture("stream-text.chunks.txt");
    const writer = transform.writable.getWriter();
    void writer.write(bytes.slice(0, Buffer.from(bytes).indexOf(Buffer.from("\r\n\r\n")) + 4));
    const reader = transform.readable.getReader();
    await reader.read();
    await reader.cancel(new Error("client disconnected"));
    await expect(writer.closed).rejects.toThrow();
    expect(reports).toEqual([{ promptTokens: 7, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 }]);
  });

  it("finds the last complete usage of a JSON array cut short", async () => {
    const reports: MeteredUsage[] = [];
    const transform = new TransformStream(createNativeUsageObserverTransform((usage) => reports.push(usage)));
    const complete = JSON.stringify(
      {
        candidates: [],
        usageMetadata: {
          promptTokenCount: 9,
          candidatesTokenCount: 4,
          candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 4 }],
        },
      },
      null,
      2,
    );
    const writer = transform.writable.getWriter();
    void writer.write(
      new TextEncoder().encode(`[${complete},\r\n{"candidates": [{"content": {"parts": [{"text": "cut`),
    );
    const reader = transform.readable.getReader();
    await reader.read();
    await reader.cancel(new Error("client disconnected"));
    expect(reports).toEqual([{ promptTokens: 9, completionTokens: 4, cachedTokens: 0, reasoningTokens: 0 }]);
  });
});
