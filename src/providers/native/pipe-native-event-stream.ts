import type { Readable } from "node:stream";
import type { Response } from "express";
import { createSseWriter } from "../../http/sse-writer.js";
import { createCollectingController } from "../../relay/create-collecting-controller.js";
import { pumpUpstreamStream } from "../../relay/pump-upstream-stream.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { createNativeUsageObserverTransform } from "./create-native-usage-observer-transform.js";
import { createSseEventAlignerTransform } from "./create-sse-event-aligner-transform.js";
import { formatNativeErrorEvent } from "./format-native-error-event.js";

/**
 * `alt=sse` pass-through: the upstream's events reach the client byte for byte (in whole events), while a copy is
 * read for the last usageMetadata, which lands in `observed.usage` when the stream ends, breaks or the client
 * leaves (usage seen so far is billed). Each upstream read goes through the usage observer and the event aligner
 * by plain calls and out as one write (pumpUpstreamStream, which holds the rule on failures before and after the
 * first event); a break after it ends the stream with one native error event after the whole events sent so far.
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
  const align = () => {
    for (const bytes of observed.take()) aligner.transform(bytes, aligned.controller);
  };
  await pumpUpstreamStream(
    upstreamBody,
    createSseWriter(response),
    {
      read: (bytes) => {
        observer.transform(bytes, observed.controller);
        align();
      },
      end: () => {
        observer.flush?.(observed.controller);
        align();
        aligner.flush?.(aligned.controller);
      },
      take: () => {
        const ready = aligned.take();
        return ready.length <= 1 ? ready[0] : Buffer.concat(ready);
      },
      terminated: false,
      cancel: (reason) => observer.cancel?.(reason),
    },
    formatNativeErrorEvent,
    input.attempt.channel.keys,
  );
}
