import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { readEmbeddingTexts } from "../../shared-translations/read-embedding-texts.js";
import { convertNativeEmbeddingsToOpenai } from "../../shared-translations/convert-native-embeddings-to-openai.js";
import { estimateEmbeddingTokens } from "../../shared-translations/estimate-embedding-tokens.js";
import type { NativeEmbedCall } from "../../contract/native-embed-call.js";
import { predictVertexEmbeddings } from "./predict-vertex-embeddings.js";

type EmbeddingRequest = OpenaiComponents["schemas"]["CreateEmbeddingRequest"];
type EmbedContentRequest = NativeComponents["schemas"]["EmbedContentRequest"];

/**
 * /v1/embeddings on a Vertex channel: the texts as `:predict` instances, `dimensions` as outputDimensionality, the
 * vectors back in the OpenAI list in the client's encoding. Billed: Vertex's own token counts (the gateway's
 * estimate only if an answer left them out).
 */
export async function relayVertexEmbeddings(request: EmbeddingRequest, input: RelayAttemptInput): Promise<void> {
  const texts = readEmbeddingTexts(request.input);
  const { vectors, tokens } = await predictVertexEmbeddings(
    input,
    texts.map((content) => ({ instance: { content }, dimensions: request.dimensions })),
  );
  const promptTokens = tokens ?? estimateEmbeddingTokens(texts);
  input.observed.usage = { promptTokens, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
  input.deliver(
    convertNativeEmbeddingsToOpenai(
      vectors.map((values) => ({ values })),
      { model: request.model, encodingFormat: request.encoding_format ?? "float", promptTokens },
    ),
  );
}

/**
 * The native embedding doors (`:embedContent`, `:batchEmbedContents`) on a Vertex channel: each request's text
 * parts (joined, as the native API embeds one content as one text) with its taskType and title as a `:predict`
 * instance, answered in the native shape. Billed: Vertex's own token counts, else the caller's count.
 */
export async function relayVertexNativeEmbed(call: NativeEmbedCall, input: RelayAttemptInput): Promise<void> {
  const requests = call.method === "embedContent" ? [call.request] : call.request.requests;
  const items = requests.map((request, index) => ({
    instance: toInstance(request, call.method === "embedContent" ? "content" : `requests[${index}].content`),
    dimensions: request.outputDimensionality,
  }));
  const { vectors, tokens } = await predictVertexEmbeddings(input, items);
  input.observed.usage = {
    promptTokens: tokens ?? call.promptTokens,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
  };
  input.deliver(
    call.method === "embedContent"
      ? { embedding: { values: vectors[0]! } }
      : { embeddings: vectors.map((values) => ({ values })) },
  );
}

function toInstance(request: EmbedContentRequest, path: string) {
  const parts = request.content.parts ?? [];
  const texts = parts.map((part, index) => {
    if (typeof part.text !== "string")
      throw new InvalidRequestError(`${path}.parts[${index}] must be text: Vertex embeds text only.`, {
        param: `${path}.parts[${index}]`,
      });
    return part.text;
  });
  return {
    content: texts.join("\n"),
    ...(request.taskType !== undefined ? { task_type: request.taskType } : {}),
    ...(request.title !== undefined ? { title: request.title } : {}),
  };
}
