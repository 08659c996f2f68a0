import { createParser } from "eventsource-parser";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { components } from "../../../../generated/types/native.js";
import { collectProducedMedia, type ProducedMedia } from "../shared/collect-produced-media.js";
import { convertNativeUsage } from "../shared/convert-native-usage.js";
import { maximumUpstreamEventSize } from "../../../upstream/upstream-failure.js";
import type { StreamByteTransformer } from "../../../upstream/stream-event-transformer.js";

type GenerateContentResponse = components["schemas"]["GenerateContentResponse"];
type UsageMetadata = components["schemas"]["UsageMetadata"];

/**
 * For the /v1beta streaming pass-through: forwards the upstream bytes unchanged and reads a copy to learn the last
 * usageMetadata, reported once through onUsage when the stream ends, fails or is cancelled (the client leaving is
 * billed for what was observed). Reads both stream formats: SSE (`alt=sse`) event by event, and the JSON array
 * (no `alt`), which is kept as text and parsed at the end, or scanned for its last complete usage if cut short.
 * A fragment it cannot parse is skipped: observing must never break the client's stream. Nor is an SSE event longer
 * than `maximumEventSize` characters kept whole: the copy skips to the next event (the pass-through stops the
 * stream there anyway).
 */
export function createNativeUsageObserverTransform(
  onUsage: (usage: MeteredUsage) => void,
  maximumEventSize = maximumUpstreamEventSize,
): StreamByteTransformer {
  const decoder = new TextDecoder();
  const producedMedia = new Set<ProducedMedia>();
  let format: "sse" | "json-array" | undefined;
  let arrayText = "";
  let lastUsageMetadata: UsageMetadata | undefined;
  let reported = false;

  const observe = (fragment: GenerateContentResponse) => {
    if (fragment.usageMetadata) lastUsageMetadata = fragment.usageMetadata;
    for (const candidate of fragment.candidates ?? []) collectProducedMedia(candidate.content?.parts, producedMedia);
  };
  let eventTooLarge = false;
  const parser = createParser({
    // The pass-through stops such an event itself (create-sse-event-aligner-transform.ts); the copy read here
    // must not grow without bound meanwhile. The parser then skips to the next event.
    maxBufferSize: maximumEventSize,
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") eventTooLarge = true;
    },
    onEvent(event) {
      try {
        const fragment: unknown = JSON.parse(event.data);
        if (typeof fragment === "object" && fragment !== null) observe(fragment as GenerateContentResponse);
      } catch {
        // Not JSON: the client sees it as sent; there is no usage in it to observe.
      }
    },
  });
  const read = (text: string) => {
    if (format === undefined) {
      const start = text.trimStart();
      if (start === "") return;
      format = start.startsWith("[") ? "json-array" : "sse";
    }
    if (format !== "sse") arrayText += text;
    else {
      parser.feed(text);
      if (eventTooLarge) {
        parser.reset();
        eventTooLarge = false;
      }
    }
  };
  const report = () => {
    if (reported) return;
    reported = true;
    if (format === "json-array") readJsonArray(arrayText, observe, (usage) => (lastUsageMetadata = usage));
    onUsage(convertNativeUsage(lastUsageMetadata, { producedMedia }).meteredUsage);
  };

  const transformer: StreamByteTransformer = {
    transform(bytes, controller) {
      controller.enqueue(bytes);
      read(decoder.decode(bytes, { stream: true }));
    },
    flush() {
      read(decoder.decode());
      report();
    },
    cancel() {
      report();
    },
  };
  return transformer;
}

function readJsonArray(
  text: string,
  observe: (fragment: GenerateContentResponse) => void,
  setUsage: (usage: UsageMetadata) => void,
): void {
  try {
    const fragments: unknown = JSON.parse(text);
    if (Array.isArray(fragments)) {
      for (const fragment of fragments)
        if (typeof fragment === "object" && fragment !== null) observe(fragment as GenerateContentResponse);
      return;
    }
  } catch {
    // Cut short: fall through to the last usage object that arrived whole.
  }
  const usage = findLastCompleteUsage(text);
  if (usage) setUsage(usage);
}

/** The last `"usageMetadata": {…}` whose braces close; usage holds only numbers and modality names, never braces in strings. */
function findLastCompleteUsage(text: string): UsageMetadata | undefined {
  for (let at = text.lastIndexOf('"usageMetadata"'); at >= 0; at = text.lastIndexOf('"usageMetadata"', at - 1)) {
    const open = text.indexOf("{", at);
    if (open < 0) continue;
    let depth = 0;
    for (let position = open; position < text.length; position += 1) {
      if (text[position] === "{") depth += 1;
      else if (text[position] === "}" && --depth === 0) {
        try {
          return JSON.parse(text.slice(open, position + 1)) as UsageMetadata;
        } catch {
          break;
        }
      }
    }
    if (at === 0) break;
  }
  return undefined;
}
