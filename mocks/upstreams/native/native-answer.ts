import type { TextSignatureCheck } from "./check-text-thought-signatures.js";

/** What a route produced, before faults decide how (or whether) it reaches the client. */
export type NativeAnswer = (
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  /** `sse` for `alt=sse`; `json-array` is what streamGenerateContent answers without alt=sse. */
  | { kind: "stream"; format: "sse" | "json-array"; fragments: unknown[] }
) & {
  /** generateContent of a generation-3 model: how the request's model turns brought their text signatures back. */
  textSignatures?: TextSignatureCheck[];
};
