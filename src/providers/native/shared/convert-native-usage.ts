import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { ProducedMedia } from "./collect-produced-media.js";

type UsageMetadata = NativeComponents["schemas"]["UsageMetadata"];
type ModalityTokenCount = NativeComponents["schemas"]["ModalityTokenCount"];
type ChatCompletionUsage = OpenaiComponents["schemas"]["ChatCompletionUsage"];
type PromptTokensDetails = NonNullable<ChatCompletionUsage["prompt_tokens_details"]>;
type CompletionTokensDetails = NonNullable<ChatCompletionUsage["completion_tokens_details"]>;

export interface ConvertedNativeUsage {
  usage: ChatCompletionUsage;
  meteredUsage: MeteredUsage;
}

/**
 * usageMetadata → OpenAI usage and the usage billing meters. Output is candidates + thoughts (thinking is billed as
 * output). Output tokens go to the bucket of what was produced: the upstream's per-modality breakdown (modality names
 * in any case), any tokens it leaves unassigned going to text; without a breakdown, all of them to the media the
 * parts contained (`producedMedia`), else to text. Missing counts are zero (the upstream omits zeros).
 */
export function convertNativeUsage(
  usageMetadata: UsageMetadata | undefined,
  options: { producedMedia?: ReadonlySet<ProducedMedia> } = {},
): ConvertedNativeUsage {
  const promptTokens = usageMetadata?.promptTokenCount ?? 0;
  const candidatesTokens = usageMetadata?.candidatesTokenCount ?? 0;
  const reasoningTokens = usageMetadata?.thoughtsTokenCount ?? 0;
  const cachedTokens = usageMetadata?.cachedContentTokenCount ?? 0;
  const completionTokens = candidatesTokens + reasoningTokens;

  const promptDetails: PromptTokensDetails = { cached_tokens: cachedTokens };
  const promptByModality = sumByModality(usageMetadata?.promptTokensDetails);
  if (promptByModality.has("text")) promptDetails.text_tokens = promptByModality.get("text");
  if (promptByModality.has("audio")) promptDetails.audio_tokens = promptByModality.get("audio");
  if (promptByModality.has("image")) promptDetails.image_tokens = promptByModality.get("image");

  const output = bucketOutputTokens(candidatesTokens, usageMetadata?.candidatesTokensDetails, options.producedMedia);
  const completionDetails: CompletionTokensDetails = {};
  if (output.text > 0) completionDetails.text_tokens = output.text;
  if (output.audio > 0) completionDetails.audio_tokens = output.audio;
  if (output.image > 0) completionDetails.image_tokens = output.image;
  completionDetails.reasoning_tokens = reasoningTokens;

  const meteredUsage: MeteredUsage = { promptTokens, completionTokens, cachedTokens, reasoningTokens };
  if (output.image > 0) meteredUsage.imageOutputTokens = output.image;
  if (output.audio > 0) meteredUsage.audioOutputTokens = output.audio;
  const audioInput = promptByModality.get("audio") ?? 0;
  if (audioInput > 0) meteredUsage.audioInputTokens = audioInput;

  return {
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: promptDetails,
      completion_tokens_details: completionDetails,
    },
    meteredUsage,
  };
}

function sumByModality(details: readonly ModalityTokenCount[] | undefined): Map<string, number> {
  const sums = new Map<string, number>();
  for (const detail of details ?? []) {
    const modality = detail.modality.toLowerCase();
    sums.set(modality, (sums.get(modality) ?? 0) + (detail.tokenCount ?? 0));
  }
  return sums;
}

function bucketOutputTokens(
  candidatesTokens: number,
  details: readonly ModalityTokenCount[] | undefined,
  producedMedia: ReadonlySet<ProducedMedia> | undefined,
): { text: number; image: number; audio: number } {
  if (!details || details.length === 0) {
    if (producedMedia?.has("image")) return { text: 0, image: candidatesTokens, audio: 0 };
    if (producedMedia?.has("audio")) return { text: 0, image: 0, audio: candidatesTokens };
    return { text: candidatesTokens, image: 0, audio: 0 };
  }
  const byModality = sumByModality(details);
  const image = byModality.get("image") ?? 0;
  const audio = byModality.get("audio") ?? 0;
  // TEXT, and anything the upstream counts that has no OpenAI bucket of its own, is priced as text output.
  const text = Math.max(0, candidatesTokens - image - audio);
  return { text, image, audio };
}
