import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { createNativeToChatStreamTransform } from "../create-native-to-chat-stream-transform.js";

export interface NativeChatStreamRun {
  /** The frames exactly as the transform emitted them. */
  frames: string[];
  usageReports: MeteredUsage[];
}

/** Feeds upstream bytes to the transform in the given pieces (byte offsets where a new read starts) and collects its output. */
export async function runNativeChatStream(
  bytes: Uint8Array,
  pieceStarts: readonly number[],
  options: { model?: string; includeThoughts?: boolean; includeUsage?: boolean; created?: number } = {},
): Promise<NativeChatStreamRun> {
  const usageReports: MeteredUsage[] = [];
  const transform = createNativeToChatStreamTransform({
    model: options.model ?? "gmx-3.5-flash",
    includeThoughts: options.includeThoughts ?? false,
    includeUsage: options.includeUsage ?? true,
    created: options.created ?? 1_749_721_287,
    onUsage: (usage) => usageReports.push(usage),
  });
  const boundaries = [
    ...new Set([0, ...pieceStarts.filter((start) => start > 0 && start < bytes.length), bytes.length]),
  ].sort((a, b) => a - b);
  const upstream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let index = 0; index + 1 < boundaries.length; index += 1)
        controller.enqueue(bytes.slice(boundaries[index], boundaries[index + 1]));
      controller.close();
    },
  });
  const frames: string[] = [];
  for await (const frame of upstream.pipeThrough(transform) as unknown as AsyncIterable<string>) frames.push(frame);
  return { frames, usageReports };
}
