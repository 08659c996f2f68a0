import type { IncomingHttpHeaders } from "node:http";

export interface RecordedRequest {
  method: string;
  /** Path with the query string, as the client sent it. */
  path: string;
  /** Lower-cased header names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** Parsed JSON for JSON bodies, the raw bytes for anything else (multipart), undefined when empty. */
  body: unknown;
  /** Epoch milliseconds when the request head arrived. */
  receivedAt: number;
  /** True when the client closed the connection before the response ended (never set by our own fault resets). */
  aborted: boolean;
}
