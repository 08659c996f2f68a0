import type { components as AnthropicComponents } from "../../../../generated/types/anthropic.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { convertChatCompletionToMessage } from "../../anthropic-wire/convert-chat-completion-to-message.js";
import { convertNativeResponseToChat } from "../chat/convert-native-response-to-chat.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type Message = AnthropicComponents["schemas"]["Message"];

/**
 * A native answer → Anthropic's message, through the chat completion the native rules already build: thoughts as a
 * thinking block, text, each functionCall as a `tool_use` whose id carries its thought signature, the finish reason
 * as the stop reason, and the usage (cached prompt tokens as cache reads, thoughts inside the output tokens).
 */
export function convertNativeResponseToMessage(
  response: GenerateContentResponse,
  options: { model: string; includeThoughts: boolean; created: number },
): { message: Message; usage: MeteredUsage } {
  const { completion, usage } = convertNativeResponseToChat(response, options);
  return { message: convertChatCompletionToMessage(completion, options.model), usage };
}
