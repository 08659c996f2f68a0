import type { ResponseReplyPlan } from "./plan-response-reply.js";
import type { ResponsesRequest } from "./responses-request.js";

export function createReasoningItem(plan: ResponseReplyPlan) {
  return { id: plan.reasoningItemId, type: "reasoning", summary: [] };
}

export function createOutputText(text: string) {
  return { type: "output_text", annotations: [], logprobs: [], text };
}

export function createMessageItem(plan: ResponseReplyPlan, status: "in_progress" | "completed" | "incomplete") {
  return {
    id: plan.messageItemId,
    type: "message",
    status,
    content: status === "in_progress" ? [] : [createOutputText(plan.textPieces.join(""))],
    role: "assistant",
  };
}

/** The `response` object; `in_progress` is the snapshot streaming sends first (no output, no usage). */
export function createResponseObject(
  request: ResponsesRequest,
  plan: ResponseReplyPlan,
  phase: "in_progress" | "final",
) {
  const status = phase === "in_progress" ? "in_progress" : plan.incomplete ? "incomplete" : "completed";
  const output =
    phase === "in_progress"
      ? []
      : [
          ...(plan.reasoningItemId ? [createReasoningItem(plan)] : []),
          createMessageItem(plan, plan.incomplete ? "incomplete" : "completed"),
        ];
  return {
    id: plan.id,
    object: "response",
    created_at: plan.createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: request.instructions,
    max_output_tokens: request.maxOutputTokens,
    model: request.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: request.previousResponseId,
    reasoning: { effort: request.reasoningEffort, summary: null },
    store: request.store,
    temperature: request.temperature,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: request.topP,
    truncation: "disabled",
    usage: phase === "in_progress" ? null : plan.usage,
    user: null,
    metadata: request.metadata,
  };
}
