/**
 * The waits between callback tries: the first retry after `backoffMs`, each next one twice as long. `tries` counts
 * the first try too, so there is one wait fewer than tries.
 */
export function computeCallbackRetryDelays(backoffMs: number, tries: number): number[] {
  return Array.from({ length: Math.max(0, tries - 1) }, (_, index) => backoffMs * 2 ** index);
}
