import crypto from "node:crypto";

// 48 random bits per process and a counter: unique across instances without drawing randomness per request.
const processPart = crypto.randomBytes(6).toString("hex");
let counter = crypto.randomBytes(4).readUInt32BE(0);

/**
 * A request id that sorts by creation time: `req_` + 12 hex digits of Unix milliseconds + 12 hex digits chosen at
 * random once per process + an 8-hex-digit counter. The quota ledger's rows are keyed by it, and random keys
 * scattered every insert over the whole index: each group commit wrote as many index pages as it had
 * reservations. Time-ordered keys land on the index's last pages.
 */
export function createRequestId(nowMs = Date.now()): string {
  counter = (counter + 1) >>> 0;
  return `${requestIdsFrom(nowMs)}${processPart}${counter.toString(16).padStart(8, "0")}`;
}

/**
 * The bound between the ids made before `nowMs` and those made at or after it: every id of an earlier millisecond
 * sorts below it, every later one above (a range of the ledger's primary key, read without another index).
 */
export function requestIdsFrom(nowMs: number): string {
  return `req_${nowMs.toString(16).padStart(12, "0")}`;
}
