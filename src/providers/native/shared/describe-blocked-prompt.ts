import type { components } from "../../../../generated/types/native.js";

type PromptFeedback = components["schemas"]["PromptFeedback"];

/**
 * The answer text of a chat completion whose prompt the upstream refused to process. It goes into `content` (with
 * finish_reason content_filter) because chat clients show content; an empty answer would look like a gateway bug.
 */
export function describeBlockedPrompt(promptFeedback: PromptFeedback | undefined): string {
  const reason = promptFeedback?.blockReason ?? "BLOCK_REASON_UNSPECIFIED";
  const categories = (promptFeedback?.safetyRatings ?? [])
    .filter((rating) => rating.blocked)
    .map((rating) => rating.category);
  const because = categories.length > 0 ? ` (${categories.join(", ")})` : "";
  return `The upstream model refused to process the prompt: it was blocked for ${reason}${because}. Rephrase the request and try again.`;
}
