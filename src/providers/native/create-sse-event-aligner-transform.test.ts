import { describe, expect, it } from "vitest";
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
  for await (const chunk of source.pipeThrough(new TransformStream(createSseEventAlignerTransform())) as unknown as AsyncIterable<Uint8Array>) out.push(decoder.decode(chunk));
  return out;
}

describe("createSseEventAlignerTransform", () => {
  it("forwards whole events only, keeping the bytes unchanged (CRLF framing split anywhere)", async () => {
    expect(await run(['data: {"a":', '1}\r\n\r', '\ndata: {"b":2}\r\n\r\ndata: {"c"'])).toEqual(['data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n', 'data: {"c"']);
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
    for await (const chunk of source.pipeThrough(new TransformStream(createSseEventAlignerTransform())) as unknown as AsyncIterable<Uint8Array>) chunks.push(new TextDecoder().decode(chunk));
    expect(chunks).toEqual(['data: "é"\n\n']);
  });
});
