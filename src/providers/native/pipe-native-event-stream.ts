import type { Readable } from "node:stream";
import type { Response } from "express";
import { createSseWriter } from "../../http/sse-writer.js";
import { createCollectingController } from "../../relay/create-collecting-controller.js";
import { streamFailureBeforeFirstEvent } from "../../relay/stream-failure-before-first-event.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { createNativeUsageObserverTransform } from "./create-native-usage-observer-transform.js";
import { createSseEventAlignerTransform } from "./create-sse-event-aligner-transform.js";
import { formatNativeErrorEvent } from "./format-native-error-event.js";

/**
 * `alt=sse` pass-through: the upstream's events reach the client byte for byte (in whole events), while a copy is
 * read for the last usageMetadata, which lands in `observed.usage` when the stream ends, breaks or the client
 * leaves (usage seen so far is billed). Each upstream read goes through the usage observer and the event aligner
 * by plain calls and out as one write before the next read (backpressure). A break before the first event goes
 * back to the relay, which may try another channel; a later break ends the stream with one native error event
 * after the whole events sent so far, and is rethrown for the relay's log; the relay ends the response after
 * settlement.
 */
export async function pipeNativeEventStream(
  upstreamBody: Readable,
  response: Response,
  input: RelayAttemptInput,
): Promise<void> {
  const observer = createNativeUsageObserverTransform((usage) => {
    input.observed.usage = usage;
  });
  const aligner = createSseEventAlignerTransform();
  const observed = createCollectingController<Uint8Array>();
  const aligned = createCollectingController<Uint8Array>();
  const writer = createSseWriter(response);
  const align = () => {
    for (const bytes of observed.take()) aligner.transform(bytes, aligned.controller);
  };
  let clientHasBytes = false;
  const send = async () => {
    const ready = aligned.take();
    if (ready.length === 0 || writer.closed) return;
    clientHasBytes = true;
    await writer.sendRaw(ready.length === 1 ? ready[0]! : Buffer.concat(ready));
  };
  try {
    for await (const bytes of upstreamBody as AsyncIterable<Buffer>) {
      observer.transform(bytes, observed.controller);
      align();
      await send();
      // Leaving the loop destroys the upstream body: undici aborts the upstream request.
      if (writer.closed) break;
    }
    if (writer.closed) {
      observer.cancel?.(new Error("client disconnected"));
      return;
    }
    observer.flush?.(observed.controller);
    align();
    aligner.flush?.(aligned.controller);
    await send();
  } catch (error) {
    observer.cancel?.(error);
    if (writer.closed) throw error;
    // Nothing reached the client, not even the headers (sse-writer.ts): the relay may try another channel.
    if (!clientHasBytes) throw streamFailureBeforeFirstEvent(error);
    await writer.sendRaw(formatNativeErrorEvent(error));
    throw error;
  }
}
