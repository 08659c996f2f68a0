import type { components } from "../../../generated/types/openai.js";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { convertConverseUsage, mapConverseStopReason } from "./convert-converse-usage.js";
import type { ConverseResponse } from "./converse-types.js";

type ChatCompletion = components["schemas"]["ChatCompletion"];
type ToolCall = components["schemas"]["ChatCompletionMessageToolCall"];

/** A Converse answer as a chat completion (text joined, tool uses as tool calls, reasoning apart), plus its usage. */
export function convertConverseResponseToChat(
  answer: ConverseResponse,
  options: { id: string; model: string; created: number },
): { completion: ChatCompletion; usage: MeteredUsage } {
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  for (const block of answer.output?.message?.content ?? []) {
    if (typeof block.text === "string") text += block.text;
    const toolUse = block.toolUse as { toolUseId?: string; name?: string; input?: unknown } | undefined;
    if (toolUse?.name)
      toolCalls.push({
        id: toolUse.toolUseId ?? `call_${toolCalls.length}`,
        type: "function",
        function: { name: toolUse.name, arguments: JSON.stringify(toolUse.input ?? {}) },
      });
    const reasoningText = (block.reasoningContent as { reasoningText?: { text?: string } } | undefined)?.reasoningText;
    if (typeof reasoningText?.text === "string") reasoning += reasoningText.text;
  }
  const { metered, chat } = convertConverseUsage(answer.usage);
  const message: ChatCompletion["choices"][number]["message"] = {
    role: "assistant",
    content: text === "" && toolCalls.length > 0 ? null : text,
  };
  if (reasoning !== "") message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    completion: {
      id: options.id,
      object: "chat.completion",
      created: options.created,
      model: options.model,
      choices: [{ index: 0, message, finish_reason: mapConverseStopReason(answer.stopReason) }],
      usage: chat,
    },
    usage: metered,
  };
}
