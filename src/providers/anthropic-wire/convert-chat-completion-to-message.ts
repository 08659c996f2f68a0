import type { components as AnthropicComponents } from "../../../generated/types/anthropic.js";
import type { components as OpenaiComponents } from "../../../generated/types/openai.js";

type ChatCompletion = OpenaiComponents["schemas"]["ChatCompletion"];
type Message = AnthropicComponents["schemas"]["Message"];
type ChatUsage = NonNullable<ChatCompletion["usage"]>;

/** OpenAI's finish reason as Anthropic's stop reason. */
export function finishReasonToStopReason(finishReason: string | null | undefined): string {
  switch (finishReason) {
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}

/** Chat usage as Anthropic's: the cached part of the prompt is reported apart, as Claude reports cache reads. */
export function chatUsageToAnthropic(usage: Partial<ChatUsage> | null | undefined): Message["usage"] {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

/** Tool arguments as an object: OpenAI sends a JSON text, which a model can get wrong. */
export function parseToolArguments(text: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return { raw_arguments: text };
  }
}

/**
 * A chat completion → Anthropic's message: `reasoning_content` as a thinking block (unsigned: only Claude signs),
 * the text as a text block, each tool call as a `tool_use` block, the finish reason as the stop reason.
 */
export function convertChatCompletionToMessage(completion: ChatCompletion, clientModel: string): Message {
  const choice = completion.choices[0];
  const message = (choice?.message ?? {}) as {
    content?: string | null;
    reasoning_content?: string | null;
    tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
  };
  const content: Message["content"] = [];
  if (message.reasoning_content) content.push({ type: "thinking", thinking: message.reasoning_content, signature: "" });
  if (message.content) content.push({ type: "text", text: message.content });
  for (const call of message.tool_calls ?? [])
    content.push({
      type: "tool_use",
      id: call.id,
      name: call.function?.name ?? "",
      input: parseToolArguments(call.function?.arguments),
    });
  return {
    id: `msg_${completion.id}`,
    type: "message",
    role: "assistant",
    model: clientModel,
    content,
    stop_reason: finishReasonToStopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: chatUsageToAnthropic(completion.usage),
  };
}
