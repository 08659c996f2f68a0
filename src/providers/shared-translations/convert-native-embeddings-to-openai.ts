import type { components as NativeComponents } from "../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../generated/types/openai.js";
import { encodeEmbeddingAsBase64 } from "./encode-embedding-as-base64.js";

type ContentEmbedding = NativeComponents["schemas"]["ContentEmbedding"];
type EmbeddingResponse = OpenaiComponents["schemas"]["CreateEmbeddingResponse"];

export interface NativeEmbeddingsConversionOptions {
  /** The model name the client asked for. */
  model: string;
  encodingFormat: "float" | "base64";
  /** From estimateEmbeddingTokens: the native API reports no usage. */
  promptTokens: number;
}

/** Native embeddings (one per input, in input order) → the OpenAI embedding list. */
export function convertNativeEmbeddingsToOpenai(
  embeddings: readonly ContentEmbedding[],
  options: NativeEmbeddingsConversionOptions,
): EmbeddingResponse {
  return {
    object: "list",
    data: embeddings.map((embedding, index) => ({
      object: "embedding",
      index,
      embedding:
        options.encodingFormat === "base64" ? encodeEmbeddingAsBase64(embedding.values) : [...embedding.values],
    })),
    model: options.model,
    usage: { prompt_tokens: options.promptTokens, total_tokens: options.promptTokens },
  };
}
