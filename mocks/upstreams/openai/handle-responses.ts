import type { IdSequence } from "../shared/create-id-sequence.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { writeSseEvents } from "../shared/write-sse-events.js";
import { createResponseObject } from "./create-response-object.js";
import { createResponsesStream } from "./create-responses-stream.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { planResponseReply, type ResponsesUsage } from "./plan-response-reply.js";
import { readJsonObjectBody } from "./read-json-object-body.js";
import type { ResponsesInputMessage } from "./responses-request.js";
import { validateResponsesRequest } from "./validate-responses-request.js";

/**
 * POST /v1/responses. `storedResponses` maps ids of stored responses to their usage, for previous_response_id;
 * `storedItems` their output messages by item id, for item_reference input items.
 */
export async function handleResponses(
  exchange: FakeExchange,
  ids: IdSequence,
  storedResponses: Map<string, ResponsesUsage>,
  storedItems: Map<string, ResponsesInputMessage>,
): Promise<void> {
  const request = validateResponsesRequest(readJsonObjectBody(exchange), (id) => storedItems.get(id));
  let previous: ResponsesUsage | undefined;
  if (request.previousResponseId !== null) {
    previous = storedResponses.get(request.previousResponseId);
    if (!previous) {
      throw new OpenaiRequestError(
        400,
        `Previous response with id '${request.previousResponseId}' not found.`,
        "invalid_request_error",
        "previous_response_id",
        "previous_response_not_found",
      );
    }
  }
  const plan = planResponseReply(request, previous, ids, Math.floor(exchange.now() / 1000));
  if (request.store) {
    storedResponses.set(plan.id, plan.usage);
    storedItems.set(plan.messageItemId, { role: "assistant", text: plan.textPieces.join("") });
  }
  if (request.stream) {
    await writeSseEvents(exchange, createResponsesStream(request, plan));
    return;
  }
  await sendJson(exchange, 200, createResponseObject(request, plan, "final"));
}
