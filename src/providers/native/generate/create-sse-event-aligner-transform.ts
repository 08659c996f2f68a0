import { maximumUpstreamEventSize, oversizedUpstreamEventFailure } from "../../../upstream/upstream-failure.js";
import type { StreamByteTransformer } from "../../../upstream/stream-event-transformer.js";

// Blank lines end events; they are ASCII, so they are found in the bytes without decoding (UTF-8 never uses these
// byte values inside a multi-byte character).
const eventBoundaries = ["\r\n\r\n", "\n\n", "\r\r"].map((boundary) => Buffer.from(boundary, "latin1"));
/** A blank line can begin this many bytes before a read: the longest boundary less one. */
const straddle = 3;

/** Where the last whole event in `bytes` ends (after its blank line), or 0 when no event ends in it. */
function lastEventEnd(bytes: Buffer): number {
  let end = 0;
  for (const boundary of eventBoundaries) {
    const at = bytes.lastIndexOf(boundary);
    if (at >= 0) end = Math.max(end, at + boundary.length);
  }
  return end;
}

/**
 * Passes SSE bytes through unchanged but only in whole events: bytes after the last blank line wait for the rest
 * of their event. A stream cut short mid-event then leaves the client with complete events only, so the error
 * event written after them is read as an event of its own instead of being glued onto half a JSON line.
 * What is left when the upstream ends normally is sent as it came.
 *
 * Only each read is searched for the end of an event (with the few bytes before it that a blank line may begin
 * in), and the waiting bytes are kept as the reads they came in: a 20 MiB image event arriving in 64 KiB reads took
 * ~4 s of the event loop when every read decoded, searched and copied everything waiting. An event that grows past
 * `maximumEventSize` bytes without ending stops the stream (502 `bad_response`).
 */
export function createSseEventAlignerTransform(maximumEventSize = maximumUpstreamEventSize): StreamByteTransformer {
  let waiting: Buffer[] = [];
  let waitingSize = 0;
  /** The last bytes waiting, where a blank line that ends in the next read may begin. */
  let waitingTail: Buffer = Buffer.alloc(0);
  return {
    transform(bytes, controller) {
      if (bytes.length === 0) return;
      const read = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // Nothing waiting holds a whole blank line (everything up to the last one was sent), so an event can only
      // end in this read or in a blank line that begins in the waiting tail.
      const endInRead = lastEventEnd(Buffer.concat([waitingTail, read])) - waitingTail.length;
      if (endInRead > 0) {
        waiting.push(read.subarray(0, endInRead));
        controller.enqueue(waiting.length === 1 ? waiting[0]! : Buffer.concat(waiting));
        const rest = read.subarray(endInRead);
        waiting = rest.length === 0 ? [] : [rest];
        waitingSize = rest.length;
        waitingTail = rest.subarray(-straddle);
      } else {
        waiting.push(read);
        waitingSize += read.length;
        waitingTail = Buffer.concat([waitingTail, read.subarray(-straddle)]).subarray(-straddle);
      }
      if (waitingSize > maximumEventSize) throw oversizedUpstreamEventFailure(maximumEventSize, "bytes");
    },
    flush(controller) {
      if (waitingSize > 0) controller.enqueue(Buffer.concat(waiting));
      waiting = [];
      waitingSize = 0;
    },
  };
}
