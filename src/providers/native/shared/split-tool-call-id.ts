import { thoughtSignatureSeparator } from "./thought-signature-separator.js";

/** A tool call id from a client → the id the upstream knows and the thoughtSignature it carried, if any. */
export function splitToolCallId(id: string): { id: string; thoughtSignature?: string } {
  const at = id.indexOf(thoughtSignatureSeparator);
  if (at < 0) return { id };
  const thoughtSignature = id.slice(at + thoughtSignatureSeparator.length);
  return thoughtSignature === "" ? { id: id.slice(0, at) } : { id: id.slice(0, at), thoughtSignature };
}
