import type { ClientGoneSignal } from "../http/client-gone-signal.js";

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
  return new OpenRelays();
}

// A class, so that `size` is a getter on the prototype: an object literal with an accessor stays in dictionary mode.
class OpenRelays implements OpenRelayRegistry {
  readonly #open = new Set<ClientGoneSignal>();

  add(signal: ClientGoneSignal): () => void {
    this.#open.add(signal);
    return () => void this.#open.delete(signal);
  }

  abortAll(reason: unknown): number {
    const aborted = [...this.#open];
    this.#open.clear();
    for (const signal of aborted) signal.abort(reason);
    return aborted.length;
  }

  get size(): number {
    return this.#open.size;
  }
}
