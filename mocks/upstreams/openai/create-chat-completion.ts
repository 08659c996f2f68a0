import { type ChatCompletionMeta, fakeSystemFingerprint } from "./chat-completion-meta.js";
import type { ChatReplyPlan } from "./plan-chat-reply.js";

/** The non-streaming `chat.completion` object, shaped like OpenAI's. */
export function createChatCompletion(plan: ChatReplyPlan, meta: ChatCompletionMeta) {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: plan.contentPieces === null ? null : plan.contentPieces.join(""),
  };
  if (plan.reasoningPieces.length > 0) message.reasoning_content = plan.reasoningPieces.join("");
  if (plan.toolCall) {
    message.tool_calls = [
      {
        id: plan.toolCall.id,
        type: "function",
        function: { name: plan.toolCall.name, arguments: plan.toolCall.argumentPieces.join("") },
      },
    ];
  }
  message.refusal = null;
  message.annotations = [];
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: plan.usage,
    service_tier: "default",
    system_fingerprint: fakeSystemFingerprint,
  };
}
