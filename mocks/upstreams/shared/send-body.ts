import type { OutgoingHttpHeaders } from "node:http";
import type { FakeExchange } from "./fake-exchange.js";

/**
 * Sends a complete (non-streaming) body. A `resetMidStreamAfterChunks` or `stallAfterChunks` of 0 sends the
 * headers (with the full Content-Length) and then resets or stalls, so the client never gets the body.
 */
export async function sendBody(
  exchange: FakeExchange,
  status: number,
  contentType: string,
  body: Buffer | string,
  headers: OutgoingHttpHeaders = {},
): Promise<void> {
  const { response, faults } = exchange;
  if (response.destroyed) return;
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  response.writeHead(status, { ...headers, "content-type": contentType, "content-length": bytes.length });
  if (faults.resetMidStreamAfterChunks === 0) {
    response.flushHeaders();
    // Give the headers a moment to leave before the reset, so the client sees headers and then a broken body.
    await new Promise((resolve) => setImmediate(resolve));
    exchange.resetConnection();
    return;
  }
  if (faults.stallAfterChunks === 0) {
    response.flushHeaders();
    return;
  }
  response.end(bytes);
}
