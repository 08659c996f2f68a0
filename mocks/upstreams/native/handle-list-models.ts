import { listNativeModels } from "./list-native-models.js";
import type { NativeAnswer } from "./native-answer.js";
import { NativeUpstreamError } from "./native-upstream-error.js";

/** GET /v1beta/models, and GET /v1beta/models/{model} when `model` is given. */
export function handleListModels(model?: string): NativeAnswer {
  const models = listNativeModels();
  if (model === undefined) return { kind: "json", status: 200, body: { models } };
  const found = models.find((candidate) => candidate.name === `models/${model}`);
  if (!found) throw new NativeUpstreamError(404, `models/${model} is not found for API version v1beta.`);
  return { kind: "json", status: 200, body: found };
}
