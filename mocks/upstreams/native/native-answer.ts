/** What a route produced, before faults decide how (or whether) it reaches the client. */
export type NativeAnswer =
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  /** `sse` for `alt=sse`; `json-array` is what streamGenerateContent answers without alt=sse. */
  | { kind: "stream"; format: "sse" | "json-array"; fragments: unknown[] };
