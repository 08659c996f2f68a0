import type { components } from "../../../generated/types/openai.js";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import type { ArkImageAnswer } from "./ark-image-wire.js";

type ImageResponse = components["schemas"]["ImageResponse"];

export interface ArkImageResultOptions {
  /** The model the client asked for (the answer names the channel's). */
  model: string;
  /** Unix seconds, when the answer has no time of its own. */
  now: number;
  outputFormat: string;
  inputImages: number;
  /** `img-b-5-0-pro-260628`: one image per request, whatever came back. */
  singleImage: boolean;
}

const zeroTokens = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

/**
 * An ARK image answer → the image document's result for other families, billed per image actually returned: the
 * images in `data` (items carrying an `error` are dropped), counted as `usage.generated_images` says when it says
 * no more than were returned. No image at all is 502 `empty_response` (nothing billed), or `prompt_blocked` when
 * the dropped items were refused by the safety filter.
 */
export function convertArkImageResponse(
  answer: ArkImageAnswer,
  options: ArkImageResultOptions,
): { result: ImageResponse; usage: MeteredUsage } {
  const items = Array.isArray(answer.data) ? answer.data : [];
  let images = items.filter((item) => !item.error && (item.url || item.b64_json));
  if (options.singleImage) images = images.slice(0, 1);
  if (images.length === 0) {
    const blocked = items.find((item) => item.error?.code?.includes("SensitiveContentDetected"));
    if (blocked)
      throw new InvalidRequestError(
        `The prompt or reference image was blocked by the safety filter (${blocked.error?.code}).`,
        { code: "prompt_blocked" },
      );
    throw new UpstreamFailure("The upstream provider returned no image.", false, {
      status: 502,
      code: "empty_response",
    });
  }
  const reported = answer.usage?.generated_images;
  const generated = typeof reported === "number" && reported >= 0 ? Math.min(reported, images.length) : images.length;
  const outputTokens = answer.usage?.output_tokens ?? 0;
  return {
    result: {
      model: options.model,
      created: answer.created ?? answer.created_at ?? options.now,
      data: images.map((item) => ({
        ...(item.url ? { url: item.url } : {}),
        ...(item.b64_json ? { b64_json: item.b64_json } : {}),
        ...(item.size ? { size: item.size } : {}),
        output_format: options.outputFormat,
      })),
      usage: {
        input_images: options.inputImages,
        generated_images: generated,
        output_tokens: outputTokens,
        total_tokens: answer.usage?.total_tokens ?? outputTokens,
      },
    },
    usage: { ...zeroTokens, imageCount: generated },
  };
}
