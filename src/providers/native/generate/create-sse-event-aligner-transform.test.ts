import { describe, expect, it } from "vitest";
import { createCollectingController } from "../../../upstream/create-collecting-controller.js";
import { createSseEventAlignerTransform } from "./create-sse-event-aligner-transform.js";

async function run(pieces: string[]): Promise<string[]> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  const out: string[] = [];
  for await (const chunk of source.pipeThrough(
    new TransformStream(createSseEventAlignerTransform()),
  ) as unknown as AsyncIterable<Uint8Array>)
    out.push(decoder.decode(chunk));
  return out;
}

describe("createSseEventAlignerTransform", () => {
  it("forwards whole events only, keeping the bytes unchanged (CRLF framing split anywhere)", async () => {
    expect(await run(['data: {"a":', "1}\r\n\r", '\ndata: {"b":2}\r\n\r\ndata: {"c"'])).toEqual([
      'data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n',
      'data: {"c"',
    ]);
  });

  it("handles LF framing and passes multi-byte characters split across chunks intact", async () => {
    const bytes = new TextEncoder().encode('data: "é"\n\n');
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 8));
        controller.enqueue(bytes.subarray(8));
        controller.close();
      },
    });
    const chunks: string[] = [];
    for await (const chunk of source.pipeThrough(
      new TransformStream(createSseEventAlignerTransform()),
    ) as unknown as AsyncIterable<Uint8Array>)
      chunks.push(new TextDecoder().decode(chunk));
    expect(chunks).toEqual(['data: "é"\n\n']);
  });
});

describe("createSseEventAlignerTransform, read by read", () => {
  function feed(reads: Uint8Array[], maximumEventSize?: number) {
    const transformer = createSseEventAlignerTransform(maximumEventSize);
    const collected = createCollectingController<Uint8Array>();
    for (const read of reads) transformer.transform(read, collected.controller);
    const sent = collected.take().map((bytes) => Buffer.from(bytes));
    transformer.flush?.(collected.controller);
    const flushed = collected.take().map((bytes) => Buffer.from(bytes));
    return { sent: [...sent, ...flushed], flushed };
  }

  it("sends every byte once, in whole events, wherever the reads split (a blank line split between reads included)", () => {
    const stream = Buffer.from('data: {"a":"é"}\r\n\r\ndata: {"b":2}\n\ndata: {"c":3}\r\rdata: {"d"', "utf8");
    for (let first = 1; first < stream.length; first += 1) {
      for (let second = first + 1; second < stream.length; second += 3) {
        const { sent, flushed } = feed([
          stream.subarray(0, first),
          stream.subarray(first, second),
          stream.subarray(second),
        ]);
        expect(Buffer.concat(sent).equals(stream)).toBe(true);
        for (const chunk of sent.slice(0, sent.length - flushed.length))
          expect(chunk.toString("latin1")).toMatch(/(\r\n\r\n|\n\n|\r\r)$/);
        expect(Buffer.concat(flushed).toString()).toBe('data: {"d"');
      }
    }
  });

  it("passes bytes that are not UTF-8 through unchanged", () => {
    const stream = Buffer.concat([Buffer.from("data: "), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from("\n\n")]);
    expect(Buffer.concat(feed([stream.subarray(0, 7), stream.subarray(7)]).sent).equals(stream)).toBe(true);
  });

  it("stops an event that grows past the limit without ending, with a 502 bad_response", () => {
    const reads = [Buffer.from("data: one\n\ndata: "), Buffer.from("x".repeat(40)), Buffer.from("x".repeat(40))];
    expect(() => feed(reads, 64)).toThrow(
      expect.objectContaining({
        status: 502,
        code: "bad_response",
        retryable: false,
        message: "The upstream sent an event larger than 64 bytes; the stream was stopped there.",
      }),
    );
    expect(feed([Buffer.from(`data: ${"x".repeat(56)}`), Buffer.from("\n\n")], 64).sent.map(String)).toEqual([
      `data: ${"x".repeat(56)}\n\n`,
    ]);
  });
});
