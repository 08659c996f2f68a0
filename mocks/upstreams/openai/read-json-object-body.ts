import type { FakeExchange } from "../shared/fake-exchange.js";
import { OpenaiRequestError } from "./openai-request-error.js";

/** The request body as a JSON object, or OpenAI's 400 for a body that is not one. */
export function readJsonObjectBody(exchange: FakeExchange): Record<string, unknown> {
  const { value, invalidJson } = exchange.body;
  if (invalidJson || value === undefined || Buffer.isBuffer(value)) {
    throw new OpenaiRequestError(
      400,
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OpenaiRequestError(
      400,
      "Invalid type for request body: expected an object.",
      "invalid_request_error",
      null,
      "invalid_type",
    );
  }
  return value as Record<string, unknown>;
}
