import { NativeUpstreamError } from "./native-upstream-error.js";

/** Accepts `gmx-…` or `models/gmx-…`; any other family is unknown to this upstream (404 NOT_FOUND). */
export function normalizeModelName(raw: string, method = "generateContent"): string {
  const model = raw.startsWith("models/") ? raw.slice("models/".length) : raw;
  if (!model.startsWith("gmx-")) {
    throw new NativeUpstreamError(
      404,
      `models/${model} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
    );
  }
  return model;
}
