import type { components } from "../../../../generated/types/openai.js";

type ChatCompletion = components["schemas"]["ChatCompletion"];

/** svc_thinking_to_content: the reasoning text goes before the answer, in `<think>` tags, and leaves its own field. */
export function inlineReasoningIntoContent(completion: ChatCompletion): void {
  for (const choice of completion.choices) {
    const message = choice.message as { content?: string | null; reasoning_content?: string | null };
    if (!message.reasoning_content) continue;
    message.content = `<think>\n${message.reasoning_content}\n</think>\n\n${message.content ?? ""}`;
    delete message.reasoning_content;
  }
}
