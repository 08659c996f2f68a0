import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream, TransformStream as NodeTransformStream } from "node:stream/web";
import type { Response } from "express";
import { createSseWriter } from "../../http/sse-writer.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { createNativeUsageObserverTransform } from "./create-native-usage-observer-transform.js";
import { createSseEventAlignerTransform } from "./create-sse-event-aligner-transform.js";
import { formatNativeErrorEvent } from "./format-native-error-event.js";

/**
 * `alt=sse` pass-through: the upstream's events reach the client byte for byte (in whole events), while a copy is
 * read for the last usageMetadata, which lands in `observed.usage` when the stream ends, breaks or the client
 * leaves (usage seen so far is billed). A break after the 200 ends the stream with one native error event and is
 * rethrown for the relay's log; the relay ends the response after settlement.
 */
export async function pipeNativeEventStream(upstreamBody: Readable, response: Response, input: RelayAttemptInput): Promise<void> {
  const events = (Readable.toWeb(upstreamBody) as NodeReadableStream<Uint8Array>)
    .pipeThrough(
      createNativeUsageObserverTransform((usage) => {
        input.observed.usage = usage;
      }) as unknown as NodeTransformStream<Uint8Array, Uint8Array>,
    )
    .pipeThrough(createSseEventAlignerTransform() as unknown as NodeTransformStream<Uint8Array, Uint8Array>);
  const writer = createSseWriter(response);
  try {
    for await (const chunk of events) {
      if (writer.closed) break;
      await writer.sendRaw(chunk);
    }
  } catch (error) {
    if (!writer.closed) await writer.sendRaw(formatNativeErrorEvent(error));
    throw error;
  }
}
