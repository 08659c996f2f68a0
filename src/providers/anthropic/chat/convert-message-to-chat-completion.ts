import type { AnthropicUsage } from "../../anthropic-wire/anthropic-usage.js";

interface ClaudeMessage {
  id?: string;
  content?: Array<{ type?: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown }>;
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

/** Claude's stop reason as OpenAI's finish reason. */
export function stopReasonToFinishReason(stopReason: string | null | undefined): string {
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      return "stop";
  }
}

/** Claude's usage in chat terms: the whole prompt (cache reads and writes included), reads as cached tokens. */
export function claudeUsageToChat(usage: AnthropicUsage | undefined) {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const promptTokens = (usage?.input_tokens ?? 0) + cacheRead + (usage?.cache_creation_input_tokens ?? 0);
  const completionTokens = usage?.output_tokens ?? 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cacheRead },
  };
}

/** Claude's message → a chat completion: text as content, thinking as `reasoning_content`, tool uses as tool calls. */
export function convertMessageToChatCompletion(message: ClaudeMessage, clientModel: string, created: number) {
  let text = "";
  let reasoning = "";
  const toolCalls: Array<Record<string, unknown>> = [];
  for (const block of message.content ?? []) {
    if (block.type === "text") text += block.text ?? "";
    else if (block.type === "thinking") reasoning += block.thinking ?? "";
    else if (block.type === "tool_use")
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
  }
  const chatMessage: Record<string, unknown> = {
    role: "assistant",
    content: text === "" && toolCalls.length > 0 ? null : text,
  };
  if (reasoning) chatMessage.reasoning_content = reasoning;
  if (toolCalls.length > 0) chatMessage.tool_calls = toolCalls;
  return {
    id: `chatcmpl-${message.id ?? "claude"}`,
    object: "chat.completion" as const,
    created,
    model: clientModel,
    choices: [{ index: 0, message: chatMessage, finish_reason: stopReasonToFinishReason(message.stop_reason) }],
    usage: claudeUsageToChat(message.usage),
  };
}
