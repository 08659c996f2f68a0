import type { SseEvent } from "./format-sse-event.js";

/** Splits a complete SSE transcript (as the fakes write it, or a recorded fixture) back into events. */
export function parseSseTranscript(transcript: string): SseEvent[] {
  return transcript
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      let event: string | undefined;
      const dataLines: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trimStart();
        else if (line.startsWith("data:")) dataLines.push(line.slice(5).replace(/^ /, ""));
      }
      return event === undefined ? { data: dataLines.join("\n") } : { event, data: dataLines.join("\n") };
    });
}
