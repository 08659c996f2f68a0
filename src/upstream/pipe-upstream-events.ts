import type { Readable } from "node:stream";
import { createParser, type EventSourceMessage, type ParseError } from "eventsource-parser";
import type { SseWriter } from "../http/sse-writer.js";
import { createCollectingController } from "./create-collecting-controller.js";
import type { StreamEventTransformer } from "./stream-event-transformer.js";
import { maximumUpstreamEventSize, oversizedUpstreamEventFailure, UpstreamFailure } from "./upstream-failure.js";
import { type IdlePing, pumpUpstreamStream } from "./pump-upstream-stream.js";

export interface PipeUpstreamEventsOptions {
  upstreamBody: Readable;
  /** Parsed upstream events → ready SSE frames for the client. */
  transformer: StreamEventTransformer;
  writer: SseWriter;
  /** The frame to send when the upstream fails mid-stream (the client must learn the stream is incomplete). */
  errorFrame: (message: string) => string;
  /** The channel's keys, masked in every frame that leaves (an upstream may quote its key in an error event). */
  channelKeys: readonly string[];
  /** The longest event in characters; defaults to maximumUpstreamEventSize. */
  maximumEventSize?: number;
  /** A frame for the client while the upstream is silent (see pumpUpstreamStream). */
  idlePing?: IdlePing;
}

/**
 * Upstream SSE bytes → text (a UTF-8 character split between reads is held until complete) → events
 * (eventsource-parser's push parser) → our translation → the client, one write per upstream read
 * (pumpUpstreamStream, which also holds the rule on failures before and after the first event). All of it runs
 * in plain calls (createCollectingController), where a chain of web TransformStreams took several promise hops per
 * chunk: ~190 µs to the first frame of a 2.6 kB chat stream in a loop, against ~35 µs for the whole stream now.
 *
 * An event that grows past `maximumEventSize` before it ends stops the stream with a 502 `bad_response`.
 * A transformer's `terminate()` stops reading the upstream after the frames it queued; `error(reason)` fails the
 * stream. After the first byte, a failure ends the stream with the frames translated so far and `errorFrame`.
 */
export async function pipeUpstreamEvents(options: PipeUpstreamEventsOptions): Promise<void> {
  const { transformer } = options;
  const events: EventSourceMessage[] = [];
  const maximumEventSize = options.maximumEventSize ?? maximumUpstreamEventSize;
  let oversized: ParseError | undefined;
  const parser = createParser({
    onEvent: (event) => void events.push(event),
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") oversized = error;
    },
    maxBufferSize: maximumEventSize,
  });
  const decoder = new TextDecoder();
  const frames = createCollectingController<string>();
  const translate = (text: string) => {
    parser.feed(text);
    for (let index = 0; index < events.length && !frames.terminated; index += 1) {
      transformer.transform(events[index]!, frames.controller);
      frames.throwIfFailed();
    }
    events.length = 0;
    // The events that ended before the oversized one were translated above and go out ahead of the error frame.
    if (oversized && !frames.terminated) throw oversizedUpstreamEventFailure(maximumEventSize, "characters", oversized);
  };
  // `terminated` mirrors the frames' after every read and end (a data property: an object literal with a getter is
  // kept in dictionary mode by V8).
  const stage = {
    read: (chunk: Buffer) => {
      try {
        translate(decoder.decode(chunk, { stream: true }));
      } finally {
        stage.terminated = frames.terminated;
      }
    },
    end: () => {
      try {
        translate(decoder.decode());
        if (frames.terminated) return;
        transformer.flush?.(frames.controller);
        frames.throwIfFailed();
      } finally {
        stage.terminated = frames.terminated;
      }
    },
    take: () => frames.take().join(""),
    terminated: false,
    cancel: (reason: unknown) => transformer.cancel?.(reason),
  };
  await pumpUpstreamStream(
    options.upstreamBody,
    options.writer,
    stage,
    (error) =>
      options.errorFrame(error instanceof UpstreamFailure ? error.message : "The upstream stream ended unexpectedly."),
    options.channelKeys,
    options.idlePing,
  );
}
