/**
 * How long a task waits before its next poll: the poll interval after a good poll; after failures (429, 5xx,
 * transport errors) the interval doubled per failure in a row, up to 64 intervals or 10 minutes, whichever is
 * shorter, and never less than the upstream's Retry-After.
 */
export function computePollDelay(pollIntervalMs: number, failuresInARow: number, retryAfterSeconds?: number): number {
  if (failuresInARow <= 0) return pollIntervalMs;
  const backedOff = Math.min(pollIntervalMs * 2 ** Math.min(failuresInARow, 6), Math.max(pollIntervalMs, 600_000));
  return Math.max(backedOff, (retryAfterSeconds ?? 0) * 1000);
}
