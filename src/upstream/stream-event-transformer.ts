import type { TransformStreamDefaultController } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";

/**
 * The transformer half of a TransformStream, synchronous: `transform` per input, `flush` at the end, `cancel` when
 * the stream stops early (the client left or the upstream broke). The relay's pipes run one directly
 * (createCollectingController); `new TransformStream(transformer)` runs it in a pipeline.
 */
export interface SynchronousTransformer<Input, Output> {
  transform(input: Input, controller: TransformStreamDefaultController<Output>): void;
  flush?(controller: TransformStreamDefaultController<Output>): void;
  cancel?(reason: unknown): void;
}

/** One stream translation: upstream SSE events in, ready client SSE frames out. */
export type StreamEventTransformer = SynchronousTransformer<EventSourceMessage, string>;

/** The same for a pass-through that sees the upstream's bytes (the native `alt=sse` relay). */
export type StreamByteTransformer = SynchronousTransformer<Uint8Array, Uint8Array>;
