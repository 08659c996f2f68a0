import type { AnthropicUsage } from "../../anthropic-wire/anthropic-usage.js";

interface ClaudeMessage {
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

/**
 * Claude's message → a chat completion: text as content, thinking as `reasoning_content` (and the signed blocks in
 * `extra_content.anthropic.thinking_blocks`, for the client to send back), tool uses as tool calls. The call of
 * `formatToolName` (the tool a response_format became) is the answer itself: its input is the content, and the
 * completion stops (`stop`) rather than asking for a tool.
 */
export function convertMessageToChatCompletion(
  message: ClaudeMessage,
  clientModel: string,
  created: number,
  formatToolName?: string,
) {
  let text = "";
  let formatted: string | undefined;
  let reasoning = "";
  const thinkingBlocks: Array<Record<string, unknown>> = [];
  const toolCalls: Array<Record<string, unknown>> = [];
  for (const block of message.content ?? []) {
    if (block.type === "text") text += block.text ?? "";
    else if (block.type === "thinking") {
      reasoning += block.thinking ?? "";
      thinkingBlocks.push({ type: "thinking", thinking: block.thinking ?? "", signature: block.signature ?? "" });
    } else if (block.type === "redacted_thinking") thinkingBlocks.push({ type: "redacted_thinking", data: block.data });
    else if (block.type === "tool_use" && formatToolName !== undefined && block.name === formatToolName)
      formatted = JSON.stringify(block.input ?? {});
    else if (block.type === "tool_use")
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
  }
  const content = formatted ?? text;
  const chatMessage: Record<string, unknown> = {
    role: "assistant",
    content: content === "" && toolCalls.length > 0 ? null : content,
  };
  if (reasoning) chatMessage.reasoning_content = reasoning;
  if (toolCalls.length > 0) chatMessage.tool_calls = toolCalls;
  if (thinkingBlocks.length > 0) chatMessage.extra_content = { anthropic: { thinking_blocks: thinkingBlocks } };
  const finishReason =
    formatted !== undefined && toolCalls.length === 0 && message.stop_reason === "tool_use"
      ? "stop"
      : stopReasonToFinishReason(message.stop_reason);
  return {
    id: `chatcmpl-${message.id ?? "claude"}`,
    object: "chat.completion" as const,
    created,
    model: clientModel,
    choices: [{ index: 0, message: chatMessage, finish_reason: finishReason }],
    usage: claudeUsageToChat(message.usage),
  };
}
