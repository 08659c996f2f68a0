import type { components } from "../../../../generated/types/native.js";

type Part = components["schemas"]["Part"];

export type ProducedMedia = "image" | "audio";

/**
 * Which media the answer parts contain, added to `into`. Usage falls back on it to bucket output tokens when the
 * upstream gives no per-modality breakdown (by what was produced, never by the model name).
 */
export function collectProducedMedia(parts: readonly Part[] | undefined, into: Set<ProducedMedia>): Set<ProducedMedia> {
  for (const part of parts ?? []) {
    if (part.thought === true) continue;
    const mimeType = (part.inlineData?.mimeType ?? part.fileData?.mimeType ?? "").toLowerCase();
    if (mimeType.startsWith("image/")) into.add("image");
    else if (mimeType.startsWith("audio/")) into.add("audio");
  }
  return into;
}
