import type { components } from "../../../generated/types/native.js";

type EmbedContentRequest = components["schemas"]["EmbedContentRequest"];
type BatchEmbedContentsRequest = components["schemas"]["BatchEmbedContentsRequest"];

/** A /v1beta embedding call (one text or a batch), with the gateway's count of its text billed as prompt tokens. */
export type NativeEmbedCall =
  | { method: "embedContent"; request: EmbedContentRequest; promptTokens: number }
  | { method: "batchEmbedContents"; request: BatchEmbedContentsRequest; promptTokens: number };
