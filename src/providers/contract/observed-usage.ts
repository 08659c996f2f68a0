import type { MeteredUsage } from "../../billing/metered-usage.js";

/**
 * Usage as far as the relay has seen it. A stream fills it in as chunks pass; if the client leaves mid-stream,
 * what is here is what gets billed (the documented rule: usage observed so far).
 */
export interface ObservedUsage {
  usage: MeteredUsage | undefined;
  /** Rough completion tokens counted from streamed text when the upstream never reported usage. */
  streamedCompletionTokens: number;
}

export function createObservedUsage(): ObservedUsage {
  return { usage: undefined, streamedCompletionTokens: 0 };
}

/**
 * Counts streamed text toward what a stream cut short is billed: about four characters a token, at least one per
 * piece. Used only when the upstream never reported usage.
 */
export function recordStreamedText(observed: ObservedUsage, text: string): void {
  observed.streamedCompletionTokens += Math.max(1, Math.ceil(text.length / 4));
}
