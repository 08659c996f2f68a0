import { extractTextContent } from "./extract-text-content.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { requireModel } from "./require-model.js";
import type { ResponsesInputMessage, ResponsesRequest } from "./responses-request.js";

/** Finds a stored output item by id (undefined when this account holds none). */
type StoredItemLookup = (id: string) => ResponsesInputMessage | undefined;

function normaliseInput(input: unknown, findStoredItem: StoredItemLookup): ResponsesInputMessage[] {
  if (input === undefined || input === null) {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'input'.",
      "invalid_request_error",
      "input",
      "missing_required_parameter",
    );
  }
  if (typeof input === "string") return [{ role: "user", text: input }];
  if (!Array.isArray(input)) {
    throw new OpenaiRequestError(
      400,
      "Invalid type for 'input': expected one of a string or array of input items.",
      "invalid_request_error",
      "input",
      "invalid_type",
    );
  }
  return input.map((item: unknown, index) => {
    if (typeof item !== "object" || item === null) {
      throw new OpenaiRequestError(
        400,
        `Invalid type for 'input[${index}]': expected an object.`,
        "invalid_request_error",
        `input[${index}]`,
        "invalid_type",
      );
    }
    const typed = item as { type?: unknown; role?: unknown; content?: unknown; output?: unknown; id?: unknown };
    if (typed.type === "item_reference") {
      const stored = typeof typed.id === "string" ? findStoredItem(typed.id) : undefined;
      // OpenAI's answer for an item this account does not hold.
      if (!stored)
        throw new OpenaiRequestError(
          404,
          `Item with id '${String(typed.id)}' not found.`,
          "invalid_request_error",
          "input",
          null,
        );
      return stored;
    }
    if (typed.type === "function_call_output")
      return { role: "tool", text: typeof typed.output === "string" ? typed.output : "" };
    if (typeof typed.role !== "string") {
      throw new OpenaiRequestError(
        400,
        `Missing required parameter: 'input[${index}].role'.`,
        "invalid_request_error",
        `input[${index}].role`,
        "missing_required_parameter",
      );
    }
    return { role: typed.role, text: extractTextContent(typed.content) };
  });
}

function readMaxOutputTokens(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new OpenaiRequestError(
      400,
      "Invalid type for 'max_output_tokens': expected an integer.",
      "invalid_request_error",
      "max_output_tokens",
      "invalid_type",
    );
  }
  // OpenAI's floor for this parameter.
  if (value < 16) {
    throw new OpenaiRequestError(
      400,
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${value} instead.`,
      "invalid_request_error",
      "max_output_tokens",
      "integer_below_min_value",
    );
  }
  return value;
}

/** Checks a Responses body; `input` may be a string or an array of {role, content} / typed items. */
export function validateResponsesRequest(
  body: Record<string, unknown>,
  findStoredItem: StoredItemLookup = () => undefined,
): ResponsesRequest {
  const model = requireModel(body);
  const effort = (body.reasoning as { effort?: unknown } | undefined)?.effort;
  const reasoningEffort = typeof effort === "string" ? effort : null;
  return {
    model,
    messages: normaliseInput(body.input, findStoredItem),
    instructions: typeof body.instructions === "string" ? body.instructions : null,
    maxOutputTokens: readMaxOutputTokens(body.max_output_tokens),
    stream: body.stream === true,
    previousResponseId: typeof body.previous_response_id === "string" ? body.previous_response_id : null,
    reasoning: model.includes("reasoner") || (reasoningEffort !== null && reasoningEffort !== "none"),
    reasoningEffort,
    store: body.store !== false,
    temperature: typeof body.temperature === "number" ? body.temperature : 1,
    topP: typeof body.top_p === "number" ? body.top_p : 1,
    metadata:
      typeof body.metadata === "object" && body.metadata !== null ? (body.metadata as Record<string, unknown>) : {},
  };
}
