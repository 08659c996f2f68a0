import { splitWords } from "../shared/split-words.js";
import type { ChatMessage } from "./chat-request.js";
import { extractTextContent } from "./extract-text-content.js";

/** prompt_tokens: 3 per message plus the whitespace-separated words of each message's text content. */
export function countChatPromptTokens(messages: ChatMessage[]): number {
  return messages.reduce((total, message) => total + 3 + splitWords(extractTextContent(message.content)).length, 0);
}
