import type { Transformer } from "node:stream/web";
import type { EventSourceMessage } from "eventsource-parser";

/**
 * One stream translation: upstream SSE events in, ready client SSE frames out, written as the transformer half of
 * a TransformStream (`transform`, `flush`, and `cancel` when the stream stops early: the client left or the
 * upstream broke). pipeUpstreamEvents runs it directly; `new TransformStream(transformer)` runs it in a pipeline.
 * (`cancel` is in Node 20's streams but not in @types/node 20's Transformer.)
 */
export type StreamEventTransformer = Transformer<EventSourceMessage, string> & { cancel?(reason: unknown): void };

/** The same for a pass-through that sees the upstream's bytes (the native `alt=sse` relay). */
export type StreamByteTransformer = Transformer<Uint8Array, Uint8Array> & { cancel?(reason: unknown): void };
