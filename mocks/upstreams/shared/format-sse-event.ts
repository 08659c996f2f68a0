export interface SseEvent {
  event?: string;
  data: string;
}

const lineBreak = /[\r\n]/;

/** Frames one event exactly as providers do: optional `event:` line, one `data:` line per data line, blank line. */
export function formatSseEvent(sseEvent: SseEvent): string {
  // A CR or LF in the event name would let a value forge further events.
  if (sseEvent.event !== undefined && lineBreak.test(sseEvent.event)) {
    throw new Error("SSE event name must not contain CR or LF");
  }
  const eventLine = sseEvent.event === undefined ? "" : `event: ${sseEvent.event}\n`;
  const dataLines = sseEvent.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join("");
  return `${eventLine}${dataLines}\n`;
}
