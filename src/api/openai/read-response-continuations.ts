import type { components } from "../../../generated/types/openai.js";
import type { Continuation } from "../../relay/response-routes.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];

/**
 * The upstream objects a Responses request continues: the earlier response (`previous_response_id`) and the output
 * items it names by reference (`item_reference` input items, which the Vercel AI SDK sends for stored turns), each
 * with the field that named it.
 */
export function readResponseContinuations(request: ResponsesRequest): Continuation[] {
  const continuations: Continuation[] = [];
  if (typeof request.previous_response_id === "string" && request.previous_response_id !== "")
    continuations.push({ id: request.previous_response_id, param: "previous_response_id" });
  if (Array.isArray(request.input)) {
    for (const [index, item] of request.input.entries()) {
      if ("type" in item && item.type === "item_reference" && typeof item.id === "string")
        continuations.push({ id: item.id, param: `input[${index}].id` });
    }
  }
  return continuations;
}
