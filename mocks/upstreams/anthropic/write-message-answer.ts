import type { FakeExchange } from "../shared/fake-exchange.js";
import type { SseEvent } from "../shared/format-sse-event.js";
import { sendJson } from "../shared/send-json.js";
import { writeSseEvents } from "../shared/write-sse-events.js";
import type { MessageReplyPlan, PlannedBlock } from "./plan-message-reply.js";

/** The answer's content blocks as Anthropic returns them whole. */
function toContentBlock(block: PlannedBlock): Record<string, unknown> {
  switch (block.type) {
    case "thinking":
      return { type: "thinking", thinking: block.pieces.join(""), signature: block.signature };
    case "text":
      return { type: "text", text: block.pieces.join("") };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
  }
}

export function buildMessage(plan: MessageReplyPlan, model: string): Record<string, unknown> {
  return {
    id: plan.id,
    type: "message",
    role: "assistant",
    model,
    content: plan.blocks.map(toContentBlock),
    stop_reason: plan.stopReason,
    stop_sequence: plan.stopSequence,
    usage: { ...plan.usage, service_tier: "standard" },
  };
}

export function sendMessage(exchange: FakeExchange, plan: MessageReplyPlan, model: string): Promise<void> {
  return sendJson(exchange, 200, buildMessage(plan, model), { "request-id": `req_fake_${plan.id}` });
}

const event = (data: Record<string, unknown>): SseEvent => ({ event: data.type as string, data: JSON.stringify(data) });

/**
 * The stream in Anthropic's order: message_start (input and cache usage, output 1), ping, each block's start,
 * deltas (thinking_delta then signature_delta; text_delta; input_json_delta from an empty input) and stop,
 * message_delta (stop reason, cumulative output tokens), message_stop.
 */
export function buildMessageEvents(plan: MessageReplyPlan, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const start = {
    ...buildMessage(plan, model),
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...plan.usage, output_tokens: 1, service_tier: "standard" },
  };
  events.push(event({ type: "message_start", message: start }));
  events.push(event({ type: "ping" }));
  let failed = false;
  plan.blocks.forEach((block, index) => {
    if (failed) return;
    const opening =
      block.type === "thinking"
        ? { type: "thinking", thinking: "", signature: "" }
        : block.type === "text"
          ? { type: "text", text: "" }
          : { type: "tool_use", id: block.id, name: block.name, input: {} };
    events.push(event({ type: "content_block_start", index, content_block: opening }));
    for (const piece of block.pieces) {
      const delta =
        block.type === "thinking"
          ? { type: "thinking_delta", thinking: piece }
          : block.type === "text"
            ? { type: "text_delta", text: piece }
            : { type: "input_json_delta", partial_json: piece };
      events.push(event({ type: "content_block_delta", index, delta }));
      if (plan.failMidStream && block.type === "text") {
        events.push(event({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
        failed = true;
        return;
      }
    }
    if (block.type === "thinking")
      events.push(
        event({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: block.signature } }),
      );
    events.push(event({ type: "content_block_stop", index }));
  });
  if (failed) return events;
  events.push(
    event({
      type: "message_delta",
      delta: { stop_reason: plan.stopReason, stop_sequence: plan.stopSequence },
      usage: {
        input_tokens: plan.usage.input_tokens,
        output_tokens: plan.usage.output_tokens,
        cache_creation_input_tokens: plan.usage.cache_creation_input_tokens,
        cache_read_input_tokens: plan.usage.cache_read_input_tokens,
      },
    }),
  );
  events.push(event({ type: "message_stop" }));
  return events;
}

export function streamMessage(exchange: FakeExchange, plan: MessageReplyPlan, model: string): Promise<void> {
  exchange.response.setHeader("request-id", `req_fake_${plan.id}`);
  return writeSseEvents(exchange, buildMessageEvents(plan, model));
}
