import type { ClientGoneSignal } from "./client-gone-signal.js";

/** The upstream calls in flight, so a stopping process can end them in a way their clients can read. */
export interface OpenRelayRegistry {
  /** Registers one relay's signal; the returned function unregisters it. */
  add(signal: ClientGoneSignal): () => void;
  /**
   * Aborts every upstream call in flight with `reason`: a stream that already started ends with its generation's
   * error event carrying the reason's message (the pipes write it for any failure after the first event) and is
   * billed for the usage observed so far; a call that has not answered yet is answered with the reason in JSON.
   * Returns how many were aborted.
   */
  abortAll(reason: unknown): number;
  readonly size: number;
}

export function createOpenRelayRegistry(): OpenRelayRegistry {
  const open = new Set<ClientGoneSignal>();
  return {
    add(signal) {
      open.add(signal);
      return () => void open.delete(signal);
    },
    abortAll(reason) {
      const aborted = [...open];
      open.clear();
      for (const signal of aborted) signal.abort(reason);
      return aborted.length;
    },
    get size() {
      return open.size;
    },
  };
}
