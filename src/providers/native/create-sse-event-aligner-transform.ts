import type { StreamByteTransformer } from "../../relay/stream-event-transformer.js";

const eventBoundaries = ["\r\n\r\n", "\n\n", "\r\r"] as const;

/**
 * Passes SSE text through unchanged but only in whole events: bytes after the last blank line wait for the rest
 * of their event. A stream cut short mid-event then leaves the client with complete events only, so the error
 * event written after them is read as an event of its own instead of being glued onto half a JSON line.
 * What is left when the upstream ends normally is sent as it came.
 */
export function createSseEventAlignerTransform(): StreamByteTransformer {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  return {
    transform(bytes, controller) {
      pending += decoder.decode(bytes, { stream: true });
      const end = Math.max(...eventBoundaries.map((boundary) => {
        const at = pending.lastIndexOf(boundary);
        return at < 0 ? 0 : at + boundary.length;
      }));
      if (end === 0) return;
      controller.enqueue(encoder.encode(pending.slice(0, end)));
      pending = pending.slice(end);
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending !== "") controller.enqueue(encoder.encode(pending));
    },
  };
}
