/**
 * What a fake upstream should do wrong. Steps run in this order: latency, socket reset before headers,
 * error status, then the normal response with the streaming faults applied to its chunks.
 * For a non-streaming body, `resetMidStreamAfterChunks: 0` / `stallAfterChunks: 0` send the headers and then
 * reset / stall, so a client sees headers but never a complete body; larger values leave it untouched.
 */
export interface FaultPlan {
  /** Delay before the status line and headers. */
  latencyMs?: number;
  /** Error status; the body is `body` verbatim when given, else the protocol's default error envelope. */
  status?: number;
  body?: object;
  /** Sets `Retry-After` on the error response. */
  retryAfterSeconds?: number;
  /** Destroys the socket before any byte of the response is written. */
  resetBeforeHeaders?: boolean;
  /** Destroys the socket after this many SSE events were written. */
  resetMidStreamAfterChunks?: number;
  /** Stops writing after this many SSE events but keeps the socket open (the client must time out or abort). */
  stallAfterChunks?: number;
  /** Delay before each SSE event. */
  chunkDelayMs?: number;
  /** How many requests the plan applies to; unlimited (until reset or replaced) when absent. */
  times?: number;
}
