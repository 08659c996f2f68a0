import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { type AnthropicUsage, convertAnthropicUsage } from "../../anthropic-wire/anthropic-usage.js";
import { createResponsesIds } from "../../../http/create-responses-ids.js";
import type { ResponseSettings } from "../../../http/echo-response-settings.js";
import { encodeClaudeThinking } from "./claude-thinking-carrier.js";

type ResponseObject = components["schemas"]["ResponseObject"];
type ResponseOutputItem = components["schemas"]["ResponseOutputItem"];
type ResponseOutputReasoning = components["schemas"]["ResponseOutputReasoning"];
type ResponseUsage = NonNullable<components["schemas"]["ResponseUsage"]>;

export interface ClaudeMessage {
  id?: string;
  content?: Array<{
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    data?: string;
    id?: string;
    name?: string;
    input?: unknown;
  }>;
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

export interface MessageToResponseOptions {
  /** The model name the client asked for. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** Unix seconds at the end, for `completed_at`. */
  completedAt: number;
  settings: ResponseSettings;
  /** The tool a JSON `text.format` became: its call is the answer, a message whose text is the tool's input. */
  formatToolName?: string | undefined;
}

/** How Claude's answer ended, as a Responses status: a limit or a refusal makes it `incomplete` with the reason. */
export function stopReasonToResponsesStatus(
  stopReason: string | null | undefined,
): Pick<ResponseObject, "status" | "incomplete_details"> {
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
    case "refusal":
      return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
    default:
      return { status: "completed", incomplete_details: null };
  }
}

/** Claude's usage in Responses terms: the whole prompt (cache reads and writes included), reads as cached tokens. */
export function claudeUsageToResponses(usage: AnthropicUsage | undefined): ResponseUsage {
  const metered = convertAnthropicUsage(usage ?? {});
  return {
    input_tokens: metered.promptTokens,
    output_tokens: metered.completionTokens,
    total_tokens: metered.promptTokens + metered.completionTokens,
    input_tokens_details: { cached_tokens: metered.cachedTokens ?? 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

/** A thinking block as a reasoning item: the thinking as its summary, the whole block in `encrypted_content`. */
export function createClaudeReasoningItem(
  id: string,
  block: { type: "thinking"; thinking: string; signature: string } | { type: "redacted_thinking"; data: string },
): ResponseOutputReasoning {
  return {
    id,
    type: "reasoning",
    summary: block.type === "thinking" && block.thinking !== "" ? [{ type: "summary_text", text: block.thinking }] : [],
    encrypted_content: encodeClaudeThinking(block),
    status: "completed",
  };
}

/**
 * Claude's message → a Responses object: each thinking block a reasoning item, each text block a message item,
 * each tool use a function_call item (its id as the call_id), in Claude's order; the stop reason as the status.
 * The call of a format's tool is the answer in that format: a message item whose text is the tool's input.
 */
export function convertMessageToResponse(
  message: ClaudeMessage,
  options: MessageToResponseOptions,
): { response: ResponseObject; usage: MeteredUsage } {
  const ids = createResponsesIds(message.id);
  const output: ResponseOutputItem[] = [];
  for (const block of message.content ?? []) {
    const position = output.length;
    if (block.type === "thinking")
      output.push(
        createClaudeReasoningItem(ids.itemId("rs", position), {
          type: "thinking",
          thinking: block.thinking ?? "",
          signature: block.signature ?? "",
        }),
      );
    else if (block.type === "redacted_thinking")
      output.push(
        createClaudeReasoningItem(ids.itemId("rs", position), { type: "redacted_thinking", data: block.data ?? "" }),
      );
    else if (
      block.type === "text" ||
      (block.type === "tool_use" && options.formatToolName !== undefined && block.name === options.formatToolName)
    )
      output.push({
        id: ids.itemId("msg", position),
        type: "message",
        status: "completed",
        role: "assistant",
        content: [
          {
            type: "output_text",
            text: block.type === "text" ? (block.text ?? "") : JSON.stringify(block.input ?? {}),
            annotations: [],
            logprobs: [],
          },
        ],
      });
    else if (block.type === "tool_use")
      output.push({
        id: ids.itemId("fc", position),
        type: "function_call",
        status: "completed",
        call_id: block.id ?? "",
        name: block.name ?? "",
        arguments: JSON.stringify(block.input ?? {}),
      });
  }
  const ending = stopReasonToResponsesStatus(message.stop_reason);
  return {
    response: {
      id: ids.responseId,
      object: "response",
      created_at: options.created,
      status: ending.status,
      completed_at: ending.status === "completed" ? options.completedAt : null,
      incomplete_details: ending.incomplete_details,
      model: options.model,
      output,
      ...options.settings,
      usage: claudeUsageToResponses(message.usage),
    },
    usage: convertAnthropicUsage(message.usage ?? {}),
  };
}
