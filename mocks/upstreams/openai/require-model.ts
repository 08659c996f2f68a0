import { OpenaiRequestError } from "./openai-request-error.js";

/**
 * Validates `model`. Any name is served, except names starting with `missing-`, which answer OpenAI's
 * 404 model_not_found so gateway tests can exercise that path.
 */
export function requireModel(body: Record<string, unknown>): string {
  const model = body.model;
  if (model === undefined || model === null || model === "") {
    throw new OpenaiRequestError(400, "you must provide a model parameter");
  }
  if (typeof model !== "string") {
    throw new OpenaiRequestError(
      400,
      `Invalid type for 'model': expected a string, but got ${Array.isArray(model) ? "an array" : `a ${typeof model}`} instead.`,
      "invalid_request_error",
      "model",
      "invalid_type",
    );
  }
  if (model.startsWith("missing-")) {
    throw new OpenaiRequestError(
      404,
      `The model \`${model}\` does not exist or you do not have access to it.`,
      "invalid_request_error",
      null,
      "model_not_found",
    );
  }
  return model;
}
