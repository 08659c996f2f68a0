import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import { convertNativeUsage } from "../shared/convert-native-usage.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type ImageResponse = OpenaiComponents["schemas"]["ImageResponse"];

export interface NativeImageResult {
  result: ImageResponse;
  /** Token usage plus `imageCount`, the images actually returned (what per_image bills). */
  usage: MeteredUsage;
}

/** Finish reasons that mean a safety or policy filter removed the image. */
const blockedFinishReasons: ReadonlySet<string> = new Set([
  "SAFETY",
  "IMAGE_SAFETY",
  "PROHIBITED_CONTENT",
  "IMAGE_PROHIBITED_CONTENT",
  "BLOCKLIST",
  "SPII",
]);

/**
 * A native generateContent answer → the native family's OpenAI-style image result: every image part as `b64_json`
 * (no data: prefix) with an empty `url` and the accompanying text as `revised_prompt` and `metadata.text`, usage in
 * tokens. A blocked prompt (or a candidate stopped by a safety filter without an image) is 400 `prompt_blocked`; an
 * answer without any image is 502 `empty_response`. Both throw before usage is reported, so nothing is charged.
 */
export function convertNativeToImageResult(
  answer: GenerateContentResponse,
  options: { created: number },
): NativeImageResult {
  if (answer.promptFeedback?.blockReason) {
    throw new InvalidRequestError(
      `The prompt or reference image was blocked by the safety filter (${answer.promptFeedback.blockReason}).`,
      {
        code: "prompt_blocked",
      },
    );
  }
  const candidate = answer.candidates?.[0];
  const parts = (candidate?.content?.parts ?? []).filter((part) => part.thought !== true);
  const images = parts.flatMap((part) =>
    part.inlineData?.mimeType?.toLowerCase().startsWith("image/") && part.inlineData.data ? [part.inlineData.data] : [],
  );
  const text = parts.flatMap((part) => (typeof part.text === "string" ? [part.text] : [])).join("");
  if (images.length === 0) {
    const finishReason = candidate?.finishReason ?? "";
    if (blockedFinishReasons.has(finishReason)) {
      throw new InvalidRequestError(
        `The prompt or reference image was blocked by the safety filter (${finishReason}).`,
        { code: "prompt_blocked" },
      );
    }
    throw new UpstreamFailure(
      `The upstream provider returned no image${finishReason ? ` (finish reason ${finishReason})` : ""}.`,
      false,
      {
        status: 502,
        code: "empty_response",
      },
    );
  }

  const { usage, meteredUsage } = convertNativeUsage(answer.usageMetadata, { producedMedia: new Set(["image"]) });
  const hasPromptBreakdown = (answer.usageMetadata?.promptTokensDetails?.length ?? 0) > 0;
  const inputImageTokens = usage.prompt_tokens_details?.image_tokens ?? 0;
  return {
    result: {
      created: options.created,
      data: images.map((b64_json) => ({ b64_json, url: "", revised_prompt: text })),
      metadata: { text },
      usage: {
        total_tokens: usage.total_tokens,
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
        input_tokens_details: {
          text_tokens: hasPromptBreakdown
            ? (usage.prompt_tokens_details?.text_tokens ?? 0)
            : usage.prompt_tokens - inputImageTokens,
          image_tokens: inputImageTokens,
        },
        output_tokens_details: {
          image_tokens: usage.completion_tokens_details?.image_tokens ?? 0,
          text_tokens: usage.completion_tokens_details?.text_tokens ?? 0,
        },
      },
    },
    usage: { ...meteredUsage, imageCount: images.length },
  };
}
