import { createEmbeddingVector } from "../openai/create-embedding-vector.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { splitWords } from "../shared/split-words.js";
import { createGoogleErrorBody } from "./google-error-body.js";

/**
 * `:predict` of a Vertex text embedding model (`text-embedding-*`, `text-multilingual-embedding-*`,
 * `gemini-embedding-*`): `instances[{content, task_type?, title?}]`, `parameters.outputDimensionality` (default 768),
 * answered `predictions[{embeddings: {values, statistics: {token_count, truncated}}}]`, a token being a word. Up to
 * 250 instances (the Gemini embedding model: 1), as Vertex allows.
 */
export async function handlePredictEmbeddings(exchange: FakeExchange, model: string): Promise<void> {
  const invalid = (message: string) => sendJson(exchange, 400, createGoogleErrorBody(400, message, "INVALID_ARGUMENT"));
  if (!/embedding/.test(model)) return invalid(`Model ${model} does not support predict for embeddings.`);
  const body = exchange.body.value as
    | { instances?: Array<{ content?: unknown }>; parameters?: { outputDimensionality?: unknown } }
    | undefined;
  const instances = body?.instances;
  const limit = model.startsWith("gemini-embedding") ? 1 : 250;
  if (!Array.isArray(instances) || instances.length === 0 || instances.length > limit)
    return invalid(`instances: between 1 and ${limit} instances are required.`);
  if (instances.some((instance) => typeof instance?.content !== "string" || instance.content === ""))
    return invalid("instances[].content: a non-empty string is required.");
  const dimensions = body?.parameters?.outputDimensionality ?? 768;
  if (typeof dimensions !== "number" || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 3072)
    return invalid("parameters.outputDimensionality: must be an integer between 1 and 3072.");
  await sendJson(exchange, 200, {
    predictions: instances.map((instance) => ({
      embeddings: {
        values: createEmbeddingVector(instance.content as string, dimensions),
        statistics: { token_count: splitWords(instance.content as string).length, truncated: false },
      },
    })),
    metadata: { billableCharacterCount: instances.reduce((sum, instance) => sum + String(instance.content).length, 0) },
  });
}
