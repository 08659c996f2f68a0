import { thoughtSignatureSeparator } from "./thought-signature-separator.js";

/** A tool call id that carries the native thoughtSignature of its functionCall part (unchanged when there is none). */
export function attachThoughtSignature(id: string, thoughtSignature: string | undefined): string {
  return thoughtSignature ? `${id}${thoughtSignatureSeparator}${thoughtSignature}` : id;
}
