import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { splitWords } from "../shared/split-words.js";
import { createEmbeddingVector } from "./create-embedding-vector.js";
import { encodeEmbeddingBase64 } from "./encode-embedding-base64.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { readJsonObjectBody } from "./read-json-object-body.js";
import { requireModel } from "./require-model.js";

/** The fake's default width; `dimensions` overrides it. */
const defaultDimensions = 8;

interface EmbeddingInput {
  /** What the vector is derived from (token arrays as their JSON). */
  key: string;
  tokens: number;
}

function invalidInput(): OpenaiRequestError {
  return new OpenaiRequestError(
    400,
    "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
  );
}

function isTokenArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => Number.isInteger(item));
}

/** Accepts OpenAI's four input shapes: string, string[], token array, array of token arrays. */
function readInputs(input: unknown): EmbeddingInput[] {
  if (input === undefined || input === null) {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'input'.",
      "invalid_request_error",
      "input",
      "missing_required_parameter",
    );
  }
  const fromString = (text: unknown): EmbeddingInput => {
    if (typeof text !== "string" || text.length === 0) throw invalidInput();
    return { key: text, tokens: splitWords(text).length };
  };
  if (typeof input === "string") return [fromString(input)];
  if (isTokenArray(input)) return [{ key: JSON.stringify(input), tokens: input.length }];
  if (!Array.isArray(input) || input.length === 0) throw invalidInput();
  return input.map((item) =>
    isTokenArray(item) ? { key: JSON.stringify(item), tokens: item.length } : fromString(item),
  );
}

/** POST /v1/embeddings. prompt_tokens = words of each string input (or length of each token array). */
export async function handleEmbeddings(exchange: FakeExchange): Promise<void> {
  const body = readJsonObjectBody(exchange);
  const model = requireModel(body);
  const inputs = readInputs(body.input);
  const encodingFormat = body.encoding_format ?? "float";
  if (encodingFormat !== "float" && encodingFormat !== "base64") {
    throw new OpenaiRequestError(
      400,
      `Invalid value: '${String(encodingFormat)}'. Supported values are: 'float' and 'base64'.`,
      "invalid_request_error",
      "encoding_format",
      "invalid_value",
    );
  }
  const dimensions = body.dimensions ?? defaultDimensions;
  if (typeof dimensions !== "number" || !Number.isInteger(dimensions) || dimensions < 1) {
    throw new OpenaiRequestError(
      400,
      `Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got ${String(dimensions)} instead.`,
      "invalid_request_error",
      "dimensions",
      "integer_below_min_value",
    );
  }
  const promptTokens = inputs.reduce((total, input) => total + input.tokens, 0);
  await sendJson(exchange, 200, {
    object: "list",
    data: inputs.map((input, index) => {
      const vector = createEmbeddingVector(input.key, dimensions);
      return {
        object: "embedding",
        index,
        embedding: encodingFormat === "base64" ? encodeEmbeddingBase64(vector) : vector,
      };
    }),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  });
}
