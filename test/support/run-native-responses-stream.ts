import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { MeteredUsage } from "../../src/billing/metered-usage.js";
import { createCollectingController } from "../../src/upstream/create-collecting-controller.js";
import { createNativeEventToResponsesTransform } from "../../src/providers/native/responses/create-native-event-to-responses-transform.js";
import { echoResponseSettings, type ResponseSettings } from "../../src/http/echo-response-settings.js";

export interface NativeResponsesStreamRun {
  /** The frames exactly as the transform emitted them. */
  frames: string[];
  usageReports: MeteredUsage[];
  texts: string[];
  /** The pipe's error frame for a failure after these frames (its sequence number continues the stream's). */
  errorFrame(message: string): string;
}

/** Feeds recorded native SSE text to the Responses transform event by event and collects its frames. */
export function runNativeResponsesStream(
  text: string,
  options: { model?: string; includeThoughts?: boolean; created?: number; settings?: ResponseSettings } = {},
): NativeResponsesStreamRun {
  const usageReports: MeteredUsage[] = [];
  const texts: string[] = [];
  const { transformer, errorFrame } = createNativeEventToResponsesTransform({
    model: options.model ?? "gmx-3.5-flash",
    includeThoughts: options.includeThoughts ?? false,
    created: options.created ?? 1_749_721_287,
    settings: options.settings ?? echoResponseSettings({ model: options.model ?? "gmx-3.5-flash", input: "hello" }),
    now: () => (options.created ?? 1_749_721_287) + 2,
    onUsage: (usage) => usageReports.push(usage),
    onText: (piece) => texts.push(piece),
  });
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void events.push(event) });
  parser.feed(text);
  const frames = createCollectingController<string>();
  for (const event of events) {
    if (frames.terminated) break;
    transformer.transform(event, frames.controller);
  }
  if (!frames.terminated) transformer.flush?.(frames.controller);
  return { frames: frames.take(), usageReports, texts, errorFrame };
}
