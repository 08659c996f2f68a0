import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { readEmbeddingTexts } from "../../shared-translations/read-embedding-texts.js";

type EmbeddingRequest = components["schemas"]["CreateEmbeddingRequest"];

/** The embedding model families Bedrock hosts behind InvokeModel, each with its own body. */
export type BedrockEmbeddingFamily = "titan-v2" | "titan-v1" | "cohere";

/** Cohere's embed models on Bedrock take at most 96 texts per call. */
export const maxCohereTextsPerCall = 96;
const titanV2Dimensions = new Set([256, 512, 1024]);

/** The family of a Bedrock model id (inference profiles such as `us.cohere.embed-…` included), or undefined. */
export function findBedrockEmbeddingFamily(modelId: string): BedrockEmbeddingFamily | undefined {
  if (modelId.includes("amazon.titan-embed-text-v2")) return "titan-v2";
  if (modelId.includes("amazon.titan-embed-text-v1") || modelId.includes("amazon.titan-embed-g1-text"))
    return "titan-v1";
  if (modelId.includes("cohere.embed")) return "cohere";
  return undefined;
}

/**
 * An OpenAI embeddings request → the InvokeModel bodies that answer it, in input order. Titan embeds one text per
 * call (`inputText`; v2 also `dimensions` 256/512/1024 and `normalize`, always on, since OpenAI's vectors are unit
 * length); Cohere takes up to 96 `texts` per call with an `input_type`, `search_document` (what OpenAI clients
 * embed is mostly text to be searched). A field the family cannot honour is refused, not dropped.
 */
export function convertEmbeddingRequestToBedrock(
  request: EmbeddingRequest,
  modelId: string,
): { family: BedrockEmbeddingFamily; bodies: Array<Record<string, unknown>> } {
  const family = findBedrockEmbeddingFamily(modelId);
  if (!family)
    throw new InvalidRequestError(
      `${request.model} is not an embedding model the gateway can call on Bedrock (Titan text or Cohere embed).`,
      { param: "model" },
    );
  const texts = readEmbeddingTexts(request.input);
  if (texts.some((text) => text === ""))
    throw new InvalidRequestError("input must not contain empty strings.", { param: "input" });
  const dimensions = request.dimensions;
  if (dimensions !== undefined && (family !== "titan-v2" || !titanV2Dimensions.has(dimensions)))
    throw new InvalidRequestError(
      family === "titan-v2"
        ? "dimensions must be 256, 512 or 1024 for Titan Text Embeddings V2."
        : `dimensions is not supported by ${request.model}.`,
      { param: "dimensions" },
    );
  if (family === "cohere") {
    const bodies: Array<Record<string, unknown>> = [];
    for (let start = 0; start < texts.length; start += maxCohereTextsPerCall)
      bodies.push({ texts: texts.slice(start, start + maxCohereTextsPerCall), input_type: "search_document" });
    return { family, bodies };
  }
  return {
    family,
    bodies: texts.map((inputText) =>
      family === "titan-v2"
        ? { inputText, ...(dimensions !== undefined ? { dimensions } : {}), normalize: true }
        : { inputText },
    ),
  };
}

/** One InvokeModel embedding answer: Titan's `embedding` and `inputTextTokenCount`, or Cohere's `embeddings`. */
export interface BedrockEmbeddingAnswer {
  embedding?: unknown;
  inputTextTokenCount?: unknown;
  embeddings?: unknown;
}

/**
 * The vectors of one answer, and its token count when the family reports one (Titan does; Cohere on Bedrock does
 * not). Undefined when the answer holds no vectors of the expected count.
 */
export function readBedrockEmbeddingAnswer(
  family: BedrockEmbeddingFamily,
  answer: BedrockEmbeddingAnswer,
  expected: number,
): { vectors: number[][]; tokens: number | undefined } | undefined {
  const isVector = (value: unknown): value is number[] =>
    Array.isArray(value) && value.every((item) => typeof item === "number");
  if (family === "cohere") {
    // Cohere answers floats as a list, or by type (`{float: [...]}`) when embedding types were asked for.
    const raw = answer.embeddings;
    const list = Array.isArray(raw) ? raw : (raw as { float?: unknown } | undefined)?.float;
    if (!Array.isArray(list) || list.length !== expected || !list.every(isVector)) return undefined;
    return { vectors: list, tokens: undefined };
  }
  if (expected !== 1 || !isVector(answer.embedding)) return undefined;
  return {
    vectors: [answer.embedding],
    tokens: typeof answer.inputTextTokenCount === "number" ? answer.inputTextTokenCount : undefined,
  };
}
