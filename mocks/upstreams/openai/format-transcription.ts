export type TranscriptionTask = "transcribe" | "translate";

export interface FormattedTranscription {
  contentType: string;
  body: string;
}

function formatTimestamp(seconds: number, fractionSeparator: "," | "."): string {
  const hours = String(Math.floor(seconds / 3600)).padStart(2, "0");
  const minutes = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
  const wholeSeconds = String(Math.floor(seconds % 60)).padStart(2, "0");
  return `${hours}:${minutes}:${wholeSeconds}${fractionSeparator}000`;
}

/** Renders a transcript in each response_format OpenAI offers; null for an unknown format. */
export function formatTranscription(
  task: TranscriptionTask,
  text: string,
  durationSeconds: number,
  responseFormat: string,
): FormattedTranscription | null {
  const usage = { type: "duration", seconds: durationSeconds };
  switch (responseFormat) {
    case "json":
      return {
        contentType: "application/json",
        body: JSON.stringify(task === "transcribe" ? { text, usage } : { text }),
      };
    case "verbose_json":
      return {
        contentType: "application/json",
        body: JSON.stringify({
          task,
          language: "english",
          duration: durationSeconds,
          text,
          segments: [
            {
              id: 0,
              seek: 0,
              start: 0,
              end: durationSeconds,
              text: ` ${text}`,
              tokens: [],
              temperature: 0,
              avg_logprob: 0,
              compression_ratio: 1,
              no_speech_prob: 0,
            },
          ],
          ...(task === "transcribe" ? { usage } : {}),
        }),
      };
    case "text":
      return { contentType: "text/plain; charset=utf-8", body: `${text}\n` };
    case "srt":
      return {
        contentType: "text/plain; charset=utf-8",
        body: `1\n${formatTimestamp(0, ",")} --> ${formatTimestamp(durationSeconds, ",")}\n${text}\n\n`,
      };
    case "vtt":
      return {
        contentType: "text/plain; charset=utf-8",
        body: `WEBVTT\n\n${formatTimestamp(0, ".")} --> ${formatTimestamp(durationSeconds, ".")}\n${text}\n\n`,
      };
    default:
      return null;
  }
}
