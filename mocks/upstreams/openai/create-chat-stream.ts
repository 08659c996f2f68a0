import type { SseEvent } from "../shared/format-sse-event.js";
import { type ChatCompletionMeta, fakeSystemFingerprint } from "./chat-completion-meta.js";
import type { ChatReplyPlan } from "./plan-chat-reply.js";

/**
 * The SSE events of a streamed chat completion, as OpenAI sends them: role chunk, one chunk per reasoning
 * and content piece (or the tool call head then argument fragments), the finish chunk, the usage chunk
 * (`choices: []`) only with include_usage (every other chunk then carries `usage: null`), and `[DONE]`.
 */
export function createChatStream(plan: ChatReplyPlan, meta: ChatCompletionMeta, includeUsage: boolean): SseEvent[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    service_tier: "default",
    system_fingerprint: fakeSystemFingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });

  const chunks: object[] = [
    chunk({ role: "assistant", content: plan.toolCall ? null : "", refusal: null }),
    ...plan.reasoningPieces.map((piece) => chunk({ reasoning_content: piece })),
  ];
  if (plan.toolCall) {
    const { id, name, argumentPieces } = plan.toolCall;
    chunks.push(chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "" } }] }));
    for (const piece of argumentPieces)
      chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  for (const piece of plan.contentPieces ?? []) chunks.push(chunk({ content: piece }));
  chunks.push(chunk({}, plan.finishReason));
  if (includeUsage) {
    chunks.push({
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      service_tier: "default",
      system_fingerprint: fakeSystemFingerprint,
      choices: [],
      usage: plan.usage,
    });
  }
  return [...chunks.map((value) => ({ data: JSON.stringify(value) })), { data: "[DONE]" }];
}
