import { Readable } from "node:stream";
import type { SseWriter } from "../../src/http/sse-writer.js";
import { pipeUpstreamEvents } from "../../src/upstream/pipe-upstream-events.js";
import type { StreamEventTransformer } from "../../src/upstream/stream-event-transformer.js";

/**
 * Feeds recorded upstream bytes, in the given pieces (byte offsets where a new read starts), through the relay's
 * own stream path (pipeUpstreamEvents with the given transformer, as the openai relays do) and returns the frames a
 * client would receive, one per SSE event. With `breakWith`, the upstream fails with that error after the last piece
 * (a connection lost mid-stream); the failure the pipe hands back to the relay is swallowed, the frames kept.
 */
export async function replayUpstreamStream(
  bytes: Uint8Array,
  pieceStarts: readonly number[],
  transformer: StreamEventTransformer,
  errorFrame: (message: string) => string,
  breakWith?: Error,
): Promise<string[]> {
  const boundaries = [
    ...new Set([0, ...pieceStarts.filter((start) => start > 0 && start < bytes.length), bytes.length]),
  ].sort((a, b) => a - b);
  const pieces = boundaries.slice(0, -1).map((start, index) => Buffer.from(bytes.slice(start, boundaries[index + 1])));
  const written: string[] = [];
  let closed = false;
  const writer: SseWriter = {
    send: () => Promise.reject(new Error("the pipe writes framed events only")),
    async sendRaw(chunk) {
      if (!closed) written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    },
    sendFinal(chunk) {
      return writer.sendRaw(chunk);
    },
    close: () => {
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
  async function* upstream() {
    yield* pieces;
    if (breakWith) throw breakWith;
  }
  try {
    await pipeUpstreamEvents({
      upstreamBody: Readable.from(upstream()),
      writer,
      errorFrame,
      transformer,
      channelKeys: [],
    });
  } catch (error) {
    if (error !== breakWith && !breakWith) throw error;
  }
  return written
    .join("")
    .split(/(?<=\n\n)/)
    .filter((frame) => frame !== "");
}
