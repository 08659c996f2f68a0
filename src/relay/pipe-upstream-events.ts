import type { Readable } from "node:stream";
import { createParser, type EventSourceMessage, type ParseError } from "eventsource-parser";
import type { SseWriter } from "../http/sse-writer.js";
import { createCollectingController } from "./create-collecting-controller.js";
import type { StreamEventTransformer } from "./stream-event-transformer.js";
import { maximumUpstreamEventSize, oversizedUpstreamEventFailure } from "./oversized-upstream-event.js";
import { streamFailureBeforeFirstEvent } from "./stream-failure-before-first-event.js";
import { UpstreamFailure } from "./upstream-failure.js";

export interface PipeUpstreamEventsOptions {
  upstreamBody: Readable;
  /** Parsed upstream events → ready SSE frames for the client. */
  transformer: StreamEventTransformer;
  writer: SseWriter;
  /** The frame to send when the upstream fails mid-stream (the client must learn the stream is incomplete). */
  errorFrame: (message: string) => string;
  /** The longest event in characters; defaults to maximumUpstreamEventSize. */
  maximumEventSize?: number;
}

/**
 * Upstream SSE bytes → text (a UTF-8 character split between reads is held until complete) → events
 * (eventsource-parser's push parser) → our translation → the client. What one upstream read yields goes out as one
 * write, before the next read (backpressure: the next read waits for the client's socket to drain). All of it runs
 * in plain calls (createCollectingController), where a chain of web TransformStreams took several promise hops per
 * chunk: ~190 µs to the first frame of a 2.6 kB chat stream in a loop, against ~35 µs for the whole stream now.
 *
 * An event that grows past `maximumEventSize` before it ends stops the stream with a 502 `bad_response`.
 * A transformer's `terminate()` stops reading the upstream after the frames it queued; `error(reason)` fails the
 * stream. A failure before anything reached the client goes back to the relay to be retried on another channel or
 * answered in JSON (streamFailureBeforeFirstEvent). A failure after the first byte cannot be retried: the client
 * gets the frames translated so far and an error frame, and the error goes back to the relay. The relay ends the
 * response once the request is settled.
 */
export async function pipeUpstreamEvents(options: PipeUpstreamEventsOptions): Promise<void> {
  const { transformer, writer } = options;
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
  let clientHasBytes = false;
  const send = async () => {
    const ready = frames.take();
    if (ready.length === 0 || writer.closed) return;
    clientHasBytes = true;
    await writer.sendRaw(ready.join(""));
  };
  try {
    for await (const chunk of options.upstreamBody as AsyncIterable<Buffer>) {
      translate(decoder.decode(chunk, { stream: true }));
      await send();
      // Leaving the loop destroys the upstream body: undici aborts the upstream request.
      if (frames.terminated || writer.closed) break;
    }
    if (!frames.terminated && !writer.closed) {
      translate(decoder.decode());
      if (!frames.terminated) {
        transformer.flush?.(frames.controller);
        frames.throwIfFailed();
      }
      await send();
    }
    if (writer.closed) transformer.cancel?.(new Error("client disconnected"));
  } catch (error) {
    transformer.cancel?.(error);
    if (writer.closed) throw error;
    await send();
    // Nothing reached the client, not even the headers (sse-writer.ts): the relay may try another channel.
    if (!clientHasBytes) throw streamFailureBeforeFirstEvent(error);
    await writer.sendRaw(
      options.errorFrame(error instanceof UpstreamFailure ? error.message : "The upstream stream ended unexpectedly."),
    );
    throw error;
  }
}
