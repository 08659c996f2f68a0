import { Readable } from "node:stream";
import type { MeteredUsage } from "../../src/billing/metered-usage.js";
import type { SseWriter } from "../../src/http/sse-writer.js";
import { pipeUpstreamEvents } from "../../src/upstream/pipe-upstream-events.js";
import { formatChatStreamErrorFrame } from "../../src/http/format-chat-stream-error-frame.js";
import { createNativeEventToChatTransform } from "../../src/providers/native/chat/create-native-event-to-chat-transform.js";

export interface NativeChatStreamRun {
  /** The frames the client received, one per SSE event, in order. */
  frames: string[];
  usageReports: MeteredUsage[];
  /** What the pipe handed back to the relay, when the stream failed. */
  failure?: unknown;
}

export interface NativeChatStreamOptions {
  model?: string;
  includeThoughts?: boolean;
  includeUsage?: boolean;
  created?: number;
  /** The client leaves after this many writes. */
  closeAfterWrites?: number;
}

/**
 * Feeds upstream bytes, in the given pieces (byte offsets where a new read starts), through the relay's own stream
 * path (pipeUpstreamEvents with the native → chat event transform, as relayNativeChat does) and collects what a
 * client would receive.
 */
export async function runNativeChatStream(
  bytes: Uint8Array,
  pieceStarts: readonly number[],
  options: NativeChatStreamOptions = {},
): Promise<NativeChatStreamRun> {
  const usageReports: MeteredUsage[] = [];
  const boundaries = [
    ...new Set([0, ...pieceStarts.filter((start) => start > 0 && start < bytes.length), bytes.length]),
  ].sort((a, b) => a - b);
  const pieces = boundaries.slice(0, -1).map((start, index) => Buffer.from(bytes.slice(start, boundaries[index + 1])));
  const written: string[] = [];
  let closed = false;
  const writer: SseWriter = {
    send: () => Promise.reject(new Error("the pipe writes framed events only")),
    async sendRaw(chunk) {
      if (closed) return;
      written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      if (options.closeAfterWrites !== undefined && written.length >= options.closeAfterWrites) closed = true;
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
  let failure: unknown;
  try {
    await pipeUpstreamEvents({
      upstreamBody: Readable.from(pieces),
      writer,
      errorFrame: formatChatStreamErrorFrame,
      channelKeys: [],
      transformer: createNativeEventToChatTransform({
        model: options.model ?? "gmx-3.5-flash",
        includeThoughts: options.includeThoughts ?? false,
        includeUsage: options.includeUsage ?? true,
        created: options.created ?? 1_749_721_287,
        onUsage: (usage) => usageReports.push(usage),
      }),
    });
  } catch (error) {
    failure = error;
  }
  // One upstream read may carry several events, written together: split them back into frames.
  const frames = written
    .join("")
    .split(/(?<=\n\n)/)
    .filter((frame) => frame !== "");
  return { frames, usageReports, ...(failure === undefined ? {} : { failure }) };
}
