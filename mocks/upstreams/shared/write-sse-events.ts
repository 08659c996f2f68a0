import { setTimeout as delay } from "node:timers/promises";
import type { FakeExchange } from "./fake-exchange.js";
import { formatSseEvent, type SseEvent } from "./format-sse-event.js";
import { writeAndFlush } from "./write-and-flush.js";

/**
 * Writes a whole SSE stream, applying the exchange's streaming faults: `chunkDelayMs` before each event,
 * a socket reset or a stall once `resetMidStreamAfterChunks` / `stallAfterChunks` events were written.
 */
export async function writeSseEvents(exchange: FakeExchange, events: SseEvent[]): Promise<void> {
  const { response, faults } = exchange;
  if (response.destroyed) return;
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();

  for (let written = 0; ; written += 1) {
    if (faults.resetMidStreamAfterChunks === written) {
      exchange.resetConnection();
      return;
    }
    // Stalling keeps the socket open with no further bytes: only the client's timeout or abort ends it.
    if (faults.stallAfterChunks === written) return;
    if (written === events.length) break;
    if (faults.chunkDelayMs) await delay(faults.chunkDelayMs);
    if (response.destroyed) return;
    await writeAndFlush(response, formatSseEvent(events[written]));
  }
  if (!response.destroyed) response.end();
}
