/** Which upstream statuses another channel might answer better: rate limits and server-side failures. */
export function isRetryableUpstreamStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Our status for an upstream's error status: client errors pass through; the rest is a gateway failure. */
export function mapUpstreamStatus(status: number): number {
  if (status === 401 || status === 403) return 502; // our upstream credential is wrong: the caller can't fix that
  if (status === 429) return 429;
  if (status >= 400 && status < 500) return status;
  if (status === 504) return 504;
  return 502;
}
