import type { components } from "../../../../generated/types/openai.js";

type ChatCompletionFinishReason = components["schemas"]["ChatCompletionFinishReason"];

/**
 * A native finishReason as an OpenAI finish_reason. A function call anywhere in the candidate wins (the client must
 * run the tools whatever the upstream called the stop), then the native reason decides. Reasons without an OpenAI
 * counterpart (OTHER, LANGUAGE, MALFORMED_FUNCTION_CALL, NO_IMAGE, ...) end the answer normally: `stop`.
 * Undefined (an intermediate stream fragment) stays null.
 */
export function mapNativeFinishReason(
  finishReason: string | undefined,
  options: { hasToolCalls: boolean },
): ChatCompletionFinishReason {
  if (options.hasToolCalls) return "tool_calls";
  if (finishReason === undefined) return null;
  switch (finishReason) {
    case "STOP":
      return "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "content_filter";
    default:
      return "stop";
  }
}
