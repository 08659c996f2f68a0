import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { CreateMessageRequest } from "../../contract/messages-call.js";
import { convertMessagesRequestToChat } from "../../anthropic-wire/convert-messages-request-to-chat.js";
import {
  convertChatRequestToNative,
  type ChatToNativeInput,
  type ChatToNativeResult,
} from "../chat/convert-chat-request-to-native.js";

type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];

export interface MessagesToNativeInput extends Omit<ChatToNativeInput, "request"> {
  request: CreateMessageRequest;
}

/**
 * A Messages request → a native generateContent request. The Messages fields are restated as the chat request they mean
 * (the same reading the OpenAI channels get) and handed to convertChatRequestToNative, so the native family keeps one
 * set of rules for media downloads, tools and schema cleaning, tool choice and safety settings. On top: Anthropic's
 * thinking budget is exact on this protocol (`thinkingConfig.thinkingBudget`, thoughts included so they come back as
 * thinking blocks; a generation-3 model takes it as its level) instead of the coarse reasoning effort chat clients
 * send, and a disabled thinking asks for no thoughts. Thought signatures need nothing here: the native answer's
 * signatures ride in the tool call ids (attachThoughtSignature), which Anthropic's clients echo in `tool_use` and
 * `tool_result` as they received them, and the chat rules put them back on the functionCall parts. A signature on
 * answer text is not carried: the API does not require it back (a turn without it only reasons worse), and the one
 * carrier Anthropic's clients keep, a thinking block, would come after the text in a stream and end the answer
 * (Claude Code reads its reply from the last block).
 */
export async function convertMessagesRequestToNative(input: MessagesToNativeInput): Promise<ChatToNativeResult> {
  const { request } = input;
  const chatRequest = convertMessagesRequestToChat(request, input.model) as unknown as ChatRequest;
  delete chatRequest.reasoning_effort;
  // Thoughts are shown when the client turned thinking on, whether or not it streams: the chat door's adaptation
  // (thoughts for streams) does not apply, so the restated request does not stream.
  delete chatRequest.stream;
  delete chatRequest.stream_options;
  const thinking = request.thinking;
  const thinkingConfig =
    thinking?.type === "enabled" && typeof thinking.budget_tokens === "number"
      ? { thinking_budget: thinking.budget_tokens, include_thoughts: true }
      : thinking?.type === "disabled"
        ? { include_thoughts: false }
        : undefined;
  if (thinkingConfig !== undefined) chatRequest.extra_body = { native: { thinking_config: thinkingConfig } };
  // The chat form of OpenAI channels leaves top_k out; the native chat rules take it.
  if (typeof request.top_k === "number") chatRequest.top_k = request.top_k;
  return convertChatRequestToNative({ ...input, request: chatRequest });
}
