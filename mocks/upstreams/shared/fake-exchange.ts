import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultPlan } from "./fault-plan.js";
import type { RecordedRequest } from "./recorded-request.js";
import type { RequestBody } from "./read-request-body.js";

/** One request/response pair as a protocol handler of a fake upstream sees it. */
export interface FakeExchange {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  body: RequestBody;
  record: RecordedRequest;
  /** The fault plan that applies to this request (header plan or programmatic plan). */
  faults: FaultPlan;
  /** Destroys the socket as an injected fault; the record is not marked `aborted`. */
  resetConnection(): void;
  /** Epoch milliseconds (injectable so recorded fixtures are reproducible). */
  now(): number;
}
