import type { SseEvent } from "../shared/format-sse-event.js";
import {
  createMessageItem,
  createOutputText,
  createReasoningItem,
  createResponseObject,
} from "./create-response-object.js";
import type { ResponseReplyPlan } from "./plan-response-reply.js";
import type { ResponsesRequest } from "./responses-request.js";

/**
 * The Responses streaming events in OpenAI's order, `event: <type>` plus a `data` carrying the same `type`
 * and a `sequence_number` counting every event. Ends with response.completed (or response.incomplete when
 * max_output_tokens cut the reply); there is no `[DONE]` in this API.
 */
export function createResponsesStream(request: ResponsesRequest, plan: ResponseReplyPlan): SseEvent[] {
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => {
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: events.length, ...fields }) });
  };
  const inProgress = createResponseObject(request, plan, "in_progress");
  emit("response.created", { response: inProgress });
  emit("response.in_progress", { response: inProgress });

  let outputIndex = 0;
  if (plan.reasoningItemId) {
    emit("response.output_item.added", { output_index: outputIndex, item: createReasoningItem(plan) });
    emit("response.output_item.done", { output_index: outputIndex, item: createReasoningItem(plan) });
    outputIndex += 1;
  }
  const text = plan.textPieces.join("");
  const part = { item_id: plan.messageItemId, output_index: outputIndex, content_index: 0 };
  emit("response.output_item.added", { output_index: outputIndex, item: createMessageItem(plan, "in_progress") });
  emit("response.content_part.added", { ...part, part: createOutputText("") });
  for (const piece of plan.textPieces) emit("response.output_text.delta", { ...part, delta: piece, logprobs: [] });
  emit("response.output_text.done", { ...part, text, logprobs: [] });
  emit("response.content_part.done", { ...part, part: createOutputText(text) });
  emit("response.output_item.done", {
    output_index: outputIndex,
    item: createMessageItem(plan, plan.incomplete ? "incomplete" : "completed"),
  });
  emit(plan.incomplete ? "response.incomplete" : "response.completed", {
    response: createResponseObject(request, plan, "final"),
  });
  return events;
}
