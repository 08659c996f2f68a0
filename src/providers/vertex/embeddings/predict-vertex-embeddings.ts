import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import { vertexEndpoints } from "../vertex-endpoints.js";

/** One text to embed as Vertex's `:predict` instance takes it. */
export interface VertexEmbeddingInstance {
  content: string;
  task_type?: string;
  title?: string;
}

/** Vertex's text embedding models take up to 250 instances per call; the Gemini embedding model one. */
export function instancesPerCall(model: string): number {
  return model.startsWith("gemini-embedding") ? 1 : 250;
}

interface PredictAnswer {
  predictions?: Array<{ embeddings?: { values?: unknown; statistics?: { token_count?: unknown } } }>;
}

/**
 * Embeds texts with a Vertex text embedding model: `:predict` under the channel's project and region, one call per
 * run of instances that share an output dimensionality (at most instancesPerCall each), one after the other. Returns
 * the vectors in input order and the tokens Vertex counted (`statistics.token_count` of each prediction), or
 * undefined when an answer left a count out.
 */
export async function predictVertexEmbeddings(
  input: RelayAttemptInput,
  items: ReadonlyArray<{ instance: VertexEmbeddingInstance; dimensions: number | undefined }>,
): Promise<{ vectors: number[][]; tokens: number | undefined }> {
  const { attempt } = input;
  const path = vertexEndpoints.modelMethod(attempt, attempt.upstreamModel, "predict");
  const limit = instancesPerCall(attempt.upstreamModel);
  const vectors: number[][] = [];
  let tokens: number | undefined = 0;
  for (let start = 0; start < items.length; ) {
    const dimensions = items[start]!.dimensions;
    let end = start + 1;
    while (end < items.length && end - start < limit && items[end]!.dimensions === dimensions) end += 1;
    const instances = items.slice(start, end).map((item) => item.instance);
    const answer = await sendUpstreamJsonRequest<PredictAnswer>(attempt, {
      method: "POST",
      path,
      headers: input.upstreamHeaders(),
      body: JSON.stringify({
        instances,
        ...(dimensions !== undefined ? { parameters: { outputDimensionality: dimensions } } : {}),
      }),
      signal: input.signal,
    });
    const predictions = Array.isArray(answer.predictions) ? answer.predictions : [];
    const values = predictions.map((prediction) => prediction.embeddings?.values);
    // Vectors out of step with the inputs would be silently misattributed; nothing reached the client yet.
    if (
      values.length !== instances.length ||
      !values.every((vector) => Array.isArray(vector) && vector.every((value) => typeof value === "number"))
    )
      throw new UpstreamFailure(
        `The upstream returned ${values.length} embeddings for ${instances.length} inputs.`,
        false,
        { status: 502, code: "bad_response" },
      );
    vectors.push(...(values as number[][]));
    for (const prediction of predictions) {
      const count = prediction.embeddings?.statistics?.token_count;
      tokens = typeof count === "number" && tokens !== undefined ? tokens + count : undefined;
    }
    start = end;
  }
  return { vectors, tokens };
}
