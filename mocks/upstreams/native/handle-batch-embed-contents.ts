import { embedOneRequest } from "./handle-embed-content.js";
import type { NativeAnswer } from "./native-answer.js";
import { NativeUpstreamError } from "./native-upstream-error.js";

const MAX_BATCH_REQUESTS = 100;

/** batchEmbedContents: {requests[]} → {embeddings[{values}]}, in request order; one bad request fails the batch. */
export function handleBatchEmbedContents(model: string, body: unknown): NativeAnswer {
  const requests = (body as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests) || requests.length === 0) throw new NativeUpstreamError(400, "requests is required");
  if (requests.length > MAX_BATCH_REQUESTS) {
    throw new NativeUpstreamError(400, `at most ${MAX_BATCH_REQUESTS} requests can be in one batch`);
  }
  const embeddings = requests.map((request, index) => embedOneRequest(model, request, `requests[${index}]: `));
  return { kind: "json", status: 200, body: { embeddings } };
}
