import type { Readable } from "node:stream";
import type { Response } from "express";
import { createSseWriter } from "../../../http/sse-writer.js";
import { createCollectingController } from "../../../upstream/create-collecting-controller.js";
import { pumpUpstreamStream } from "../../../upstream/pump-upstream-stream.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
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
const finishReasonField = Buffer.from('"finishReason"');

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
  // The native stream has no closing marker: its last chunk is the one with a finish reason. Events from that one
  // on are kept until the next read (more came: not the last) or the upstream's end, where the pump hands them over
  // as the final frames, held until the request is settled.
  let pending: Uint8Array | undefined;
  let ending = false;
  const take = (): Uint8Array | undefined => {
    const readyList = aligned.take();
    let ready = readyList.length <= 1 ? readyList[0] : Buffer.concat(readyList);
    if (pending !== undefined) {
      ready = ready === undefined ? pending : Buffer.concat([pending, ready]);
      pending = undefined;
    }
    if (
      ready === undefined ||
      ending ||
      !Buffer.from(ready.buffer, ready.byteOffset, ready.byteLength).includes(finishReasonField)
    )
      return ready;
    pending = ready;
    return undefined;
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
        ending = true;
        observer.flush?.(observed.controller);
        align();
        aligner.flush?.(aligned.controller);
      },
      take,
      terminated: false,
      cancel: (reason) => {
        ending = true;
        observer.cancel?.(reason);
      },
    },
    formatNativeErrorEvent,
    input.attempt.channel.keys,
  );
}
