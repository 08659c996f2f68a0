import type { components } from "../../../../generated/types/openai.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";

type ImageResponse = components["schemas"]["ImageResponse"];

/** A GPT-image answer, read tolerantly: `size` and `output_format` sit beside `data` there. */
export interface OpenaiImageAnswer {
  created?: number;
  data?: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
  size?: string;
  output_format?: string;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    total_tokens?: number;
    output_tokens_details?: { image_tokens?: number };
  };
}

/**
 * An `img-c-2` answer from an OpenAI images API → the image document's result for other families: each image as
 * `b64_json` with the answer's size and format, usage in images and tokens. Billed per image returned plus the
 * tokens reported. No image is 502 `empty_response`, billed nothing.
 */
export function convertOpenaiImageResponse(
  answer: OpenaiImageAnswer,
  options: { model: string; now: number; inputImages: number },
): { result: ImageResponse; usage: MeteredUsage } {
  const images = (Array.isArray(answer.data) ? answer.data : []).filter((item) => item.b64_json || item.url);
  if (images.length === 0)
    throw new UpstreamFailure("The upstream provider returned no image.", false, {
      status: 502,
      code: "empty_response",
    });
  const inputTokens = answer.usage?.input_tokens ?? 0;
  const outputTokens = answer.usage?.output_tokens ?? 0;
  const usage: MeteredUsage = {
    promptTokens: inputTokens,
    completionTokens: outputTokens,
    cachedTokens: 0,
    reasoningTokens: 0,
    imageCount: images.length,
  };
  const imageTokens = answer.usage?.output_tokens_details?.image_tokens;
  if (typeof imageTokens === "number" && imageTokens > 0) usage.imageOutputTokens = imageTokens;
  return {
    result: {
      model: options.model,
      created: answer.created ?? options.now,
      data: images.map((item) => ({
        ...(item.b64_json ? { b64_json: item.b64_json } : {}),
        ...(item.url ? { url: item.url } : {}),
        ...(answer.size ? { size: answer.size } : {}),
        output_format: answer.output_format ?? "png",
      })),
      usage: {
        input_images: options.inputImages,
        generated_images: images.length,
        output_tokens: outputTokens,
        total_tokens: answer.usage?.total_tokens ?? inputTokens + outputTokens,
      },
    },
    usage,
  };
}
