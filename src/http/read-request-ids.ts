import type { IncomingMessage } from "node:http";
import { createRequestId } from "./create-request-id.js";
import type { RequestIds } from "./request-ids.js";

/** The ids assignRequestId gave the request; fresh ones for a request that did not pass it (unit tests). */
export function readRequestIds(request: IncomingMessage): Required<Omit<RequestIds, "metricsModel">> {
  const ids = request as IncomingMessage & RequestIds;
  if (ids.requestId === undefined || ids.ledgerRequestId === undefined) {
    ids.ledgerRequestId = createRequestId();
    ids.requestId = ids.ledgerRequestId;
  }
  return ids as Required<Omit<RequestIds, "metricsModel">>;
}
