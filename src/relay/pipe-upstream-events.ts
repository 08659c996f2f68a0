import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { SseWriter } from "../http/sse-writer.js";

export interface PipeUpstreamEventsOptions {
  upstreamBody: Readable;
  /** Parsed upstream events → ready SSE frames for the client. */
  transform: TransformStream<EventSourceMessage, string>;
  writer: SseWriter;
  /** The frame to send when the upstream fails mid-stream (the client must learn the stream is incomplete). */
  errorFrame: (message: string) => string;
}

/**
 * Upstream SSE bytes → lines → events (eventsource-parser) → our translation → the client, one frame at a time,
 * waiting for the client's socket to drain (backpressure reaches the upstream through the pipe). A failure after
 * the first byte cannot be retried: the client gets an error frame, and the error goes back to the relay. The relay
 * ends the response once the request is settled.
 */
export async function pipeUpstreamEvents(options: PipeUpstreamEventsOptions): Promise<void> {
  const frames = (Readable.toWeb(options.upstreamBody) as NodeReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(options.transform);
  try {
    for await (const frame of frames as unknown as AsyncIterable<string>) {
      if (options.writer.closed) break;
      await options.writer.sendRaw(frame);
    }
  } catch (error) {
    if (!options.writer.closed) {
      await options.writer.sendRaw(options.errorFrame("The upstream stream ended unexpectedly."));
    }
    throw error;
  }
}
