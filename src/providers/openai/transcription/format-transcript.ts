import type { components } from "../../../../generated/types/openai.js";

type VerboseTranscript = components["schemas"]["TranscriptionVerboseResponse"];

export type TranscriptFormat = "json" | "text" | "srt" | "verbose_json" | "vtt";

export type FormattedTranscript = { kind: "json"; body: unknown } | { kind: "text"; contentType: string; text: string };

function formatTimestamp(seconds: number, fractionSeparator: "," | "."): string {
  const milliseconds = Math.round(seconds * 1000);
  const hours = String(Math.floor(milliseconds / 3_600_000)).padStart(2, "0");
  const minutes = String(Math.floor((milliseconds % 3_600_000) / 60_000)).padStart(2, "0");
  const wholeSeconds = String(Math.floor((milliseconds % 60_000) / 1000)).padStart(2, "0");
  const fraction = String(milliseconds % 1000).padStart(3, "0");
  return `${hours}:${minutes}:${wholeSeconds}${fractionSeparator}${fraction}`;
}

/**
 * The gateway always asks the upstream for `verbose_json` (it carries the duration, which transcription is billed
 * by) and renders the format the client asked for from it: `json` keeps the text, `text` is the text with a line
 * break, `srt` and `vtt` are rendered from the timed segments (the whole text as one cue when there are none).
 */
export function formatTranscript(transcript: VerboseTranscript, format: TranscriptFormat): FormattedTranscript {
  const segments = transcript.segments?.length
    ? transcript.segments
    : [{ id: 0, start: 0, end: transcript.duration, text: transcript.text }];
  switch (format) {
    case "verbose_json":
      return { kind: "json", body: transcript };
    case "json":
      return { kind: "json", body: { text: transcript.text } };
    case "text":
      return { kind: "text", contentType: "text/plain; charset=utf-8", text: `${transcript.text}\n` };
    case "srt":
      return {
        kind: "text",
        contentType: "text/plain; charset=utf-8",
        text: segments
          .map(
            (segment, index) =>
              `${index + 1}\n${formatTimestamp(segment.start, ",")} --> ${formatTimestamp(segment.end, ",")}\n${segment.text.trim()}\n`,
          )
          .join("\n"),
      };
    case "vtt":
      return {
        kind: "text",
        contentType: "text/plain; charset=utf-8",
        text: `WEBVTT\n\n${segments
          .map(
            (segment) =>
              `${formatTimestamp(segment.start, ".")} --> ${formatTimestamp(segment.end, ".")}\n${segment.text.trim()}\n`,
          )
          .join("\n")}`,
      };
  }
}
