import type { components } from "../../../generated/types/native.js";

type GenerateContentRequest = components["schemas"]["GenerateContentRequest"];

/** A /v1beta generateContent or streamGenerateContent call, as the handler read it. */
export interface NativeGenerateCall {
  /** The body as the client sent it (thinking suffix applied); not re-validated: the upstream judges it. */
  request: GenerateContentRequest;
  /** `json`: generateContent; `sse`: streamGenerateContent?alt=sse; `json-array`: streamGenerateContent without alt. */
  mode: "json" | "sse" | "json-array";
  /** Billed as prompt tokens when an upstream answer carries no usageMetadata at all. */
  promptTokenEstimate: number;
}
