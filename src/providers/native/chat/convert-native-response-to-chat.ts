import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { collectProducedMedia, type ProducedMedia } from "../shared/collect-produced-media.js";
import { convertNativePartsToMessage } from "./convert-native-parts-to-message.js";
import { convertNativeLogprobs } from "./convert-native-logprobs.js";
import { convertNativeUsage } from "../shared/convert-native-usage.js";
import { createChatCompletionId } from "../../../http/create-chat-completion-id.js";
import { createThoughtSignatureExtraContent } from "../../shared-translations/thought-signatures.js";
import { createToolCallId } from "../shared/create-tool-call-id.js";
import { describeBlockedPrompt } from "../shared/describe-blocked-prompt.js";
import { mapNativeFinishReason } from "./map-native-finish-reason.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type ChatCompletion = OpenaiComponents["schemas"]["ChatCompletion"];
type ChatCompletionChoice = OpenaiComponents["schemas"]["ChatCompletionChoice"];

export interface NativeResponseConversionOptions {
  /** The model name the client asked for (the answer names it, not the upstream's modelVersion). */
  model: string;
  includeThoughts: boolean;
  /** Unix seconds. */
  created: number;
}

/**
 * A non-streaming native answer as a chat completion, plus the usage billing meters. A prompt the upstream blocked
 * (no candidates, promptFeedback) becomes one choice finished by content_filter whose content says why.
 */
export function convertNativeResponseToChat(
  response: GenerateContentResponse,
  options: NativeResponseConversionOptions,
): { completion: ChatCompletion; usage: MeteredUsage } {
  const id = response.responseId || createChatCompletionId();
  const producedMedia = new Set<ProducedMedia>();
  const candidates = response.candidates ?? [];

  const choices: ChatCompletionChoice[] = candidates.map((candidate, position) => {
    const index = candidate.index ?? position;
    const parts = candidate.content?.parts;
    collectProducedMedia(parts, producedMedia);
    const converted = convertNativePartsToMessage(parts, {
      includeThoughts: options.includeThoughts,
      createToolCallId: (callIndex) => createToolCallId(id, index, callIndex),
    });
    const message: ChatCompletionChoice["message"] = { role: "assistant", content: converted.content };
    if (converted.reasoning_content !== null) message.reasoning_content = converted.reasoning_content;
    if (converted.tool_calls.length > 0) message.tool_calls = converted.tool_calls;
    // The client sends the message back as it came, so the text's signature returns to the model turn with it.
    if (converted.textThoughtSignature !== null)
      message.extra_content = createThoughtSignatureExtraContent(converted.textThoughtSignature);
    const hasToolCalls = converted.tool_calls.length > 0;
    // A candidate without finishReason in a complete answer is unusual; it still ended, so it maps like STOP.
    const finishReason = mapNativeFinishReason(candidate.finishReason ?? "STOP", { hasToolCalls });
    const choice: ChatCompletionChoice = { index, message, finish_reason: finishReason };
    const logprobs = convertNativeLogprobs(candidate.logprobsResult);
    if (logprobs !== undefined) choice.logprobs = logprobs;
    return choice;
  });
  choices.sort((left, right) => left.index - right.index);

  if (choices.length === 0) {
    choices.push({
      index: 0,
      message: { role: "assistant", content: describeBlockedPrompt(response.promptFeedback) },
      finish_reason: "content_filter",
    });
  }

  const { usage, meteredUsage } = convertNativeUsage(response.usageMetadata, { producedMedia });
  return {
    completion: { id, object: "chat.completion", created: options.created, model: options.model, choices, usage },
    usage: meteredUsage,
  };
}
