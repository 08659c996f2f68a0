import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendBody } from "../shared/send-body.js";
import { writeAndFlush } from "../shared/write-and-flush.js";
import { setTimeout as delay } from "node:timers/promises";
import type { NativeAnswer } from "./native-answer.js";

/** One streamGenerateContent fragment: the real API ends every SSE event with CRLF CRLF and sends no [DONE]. */
export function formatSseFragment(fragment: unknown): string {
  return `data: ${JSON.stringify(fragment)}\r\n\r\n`;
}

/**
 * Writes an answer with the exchange's streaming faults. JSON answers are pretty-printed like the real API's and
 * follow the shared non-streaming fault rules (`…AfterChunks: 0` sends headers, then resets or stalls).
 */
export async function writeNativeAnswer(exchange: FakeExchange, answer: NativeAnswer): Promise<void> {
  if (answer.kind === "json") {
    return sendBody(
      exchange,
      answer.status,
      "application/json; charset=UTF-8",
      JSON.stringify(answer.body, null, 2),
      answer.headers,
    );
  }
  const { response, faults } = exchange;
  if (response.destroyed) return;
  const pieces =
    answer.format === "sse"
      ? answer.fragments.map(formatSseFragment)
      : answer.fragments.map((fragment, index) => `${index === 0 ? "[" : ",\r\n"}${JSON.stringify(fragment, null, 2)}`);
  response.writeHead(200, {
    "content-type": answer.format === "sse" ? "text/event-stream" : "application/json; charset=UTF-8",
    "content-disposition": "attachment",
    "x-content-type-options": "nosniff",
  });
  response.flushHeaders();
  for (let written = 0; ; written += 1) {
    if (faults.resetMidStreamAfterChunks === written) return exchange.resetConnection();
    // A stall keeps the socket open with no further bytes; only the client's timeout or abort (or close()) ends it.
    if (faults.stallAfterChunks === written) return;
    if (written === pieces.length) break;
    if (faults.chunkDelayMs) await delay(faults.chunkDelayMs);
    if (response.destroyed) return;
    await writeAndFlush(response, pieces[written]!);
  }
  if (!response.destroyed) response.end(answer.format === "json-array" ? "]" : undefined);
}
