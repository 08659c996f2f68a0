import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestId } from "./create-request-id.js";
import type { RequestIds } from "./request-ids.js";

// Printable, no spaces or quotes, short: safe in a header, a log line and a message a user quotes back.
const saneRequestId = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Gives the request its public id (the client's `X-Request-Id` when it is sane, else a new one) and sends it back
 * on every answer. The quota ledger is keyed by an id of ours that is always unique: a client's id may repeat.
 * Runs first, before the fast lane and the Express stack, so every answer carries it.
 */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const ledgerId = createRequestId();
  const sent = request.headers["x-request-id"];
  const requestId = typeof sent === "string" && saneRequestId.test(sent) ? sent : ledgerId;
  const ids = request as IncomingMessage & RequestIds;
  ids.requestId = requestId;
  ids.ledgerRequestId = ledgerId;
  response.setHeader("X-Request-Id", requestId);
  return requestId;
}
