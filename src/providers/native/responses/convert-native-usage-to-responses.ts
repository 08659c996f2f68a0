import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { ConvertedNativeUsage } from "../shared/convert-native-usage.js";

type ResponseUsage = NonNullable<OpenaiComponents["schemas"]["ResponseUsage"]>;

/** The chat usage convertNativeUsage built, in the Responses shape (output tokens include reasoning tokens). */
export function convertNativeUsageToResponses({ usage }: ConvertedNativeUsage): ResponseUsage {
  return {
    input_tokens: usage.prompt_tokens,
    output_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
  };
}
