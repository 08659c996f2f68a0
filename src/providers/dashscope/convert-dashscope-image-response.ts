import type { components } from "../../../generated/types/openai.js";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import type { DashscopeImageAnswer } from "./dashscope-image-wire.js";
import { readDashscopeError } from "./read-dashscope-error.js";

type ImageResponse = components["schemas"]["ImageResponse"];

export interface DashscopeImageResultOptions {
  /** The model the client asked for. */
  model: string;
  /** Unix seconds (the answer carries no time). */
  now: number;
  inputImages: number;
}

const zeroTokens = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

/**
 * A DashScope multimodal generation answer → the image document's result for other families: every `{image: url}`
 * content item of every choice, with the size from usage (`width*height` → `WIDTHxHEIGHT`), billed per image
 * returned (`usage.image_count` when it says no more). No image is 502 `empty_response`, or `prompt_blocked` when
 * the answer carries the provider's safety code; nothing is billed then.
 */
export function convertDashscopeImageResponse(
  answer: DashscopeImageAnswer,
  options: DashscopeImageResultOptions,
): { result: ImageResponse; usage: MeteredUsage } {
  const urls = (answer.output?.choices ?? []).flatMap((choice) =>
    (choice.message?.content ?? []).flatMap((item) =>
      typeof item.image === "string" && item.image ? [item.image] : [],
    ),
  );
  if (urls.length === 0) {
    const error = readDashscopeError(JSON.stringify(answer));
    if (error?.blocked)
      throw new InvalidRequestError(`The prompt or reference image was blocked by the safety filter (${error.code}).`, {
        code: "prompt_blocked",
      });
    throw new UpstreamFailure("The upstream provider returned no image.", false, {
      status: 502,
      code: "empty_response",
    });
  }
  const reported = answer.usage?.image_count;
  const generated = typeof reported === "number" && reported >= 0 ? Math.min(reported, urls.length) : urls.length;
  const width = answer.usage?.width;
  const height = answer.usage?.height;
  const size = typeof width === "number" && typeof height === "number" ? `${width}x${height}` : undefined;
  return {
    result: {
      model: options.model,
      created: options.now,
      data: urls.map((url) => ({ url, ...(size ? { size } : {}), output_format: readOutputFormat(url) })),
      usage: { input_images: options.inputImages, generated_images: generated, output_tokens: 0, total_tokens: 0 },
    },
    usage: { ...zeroTokens, imageCount: generated },
  };
}

/** The file type a result URL's path ends with (its signed query ignored); png, the provider's usual, otherwise. */
function readOutputFormat(url: string): string {
  try {
    const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
    if (extension === "jpg") return "jpeg";
    if (extension === "jpeg" || extension === "png" || extension === "webp") return extension;
  } catch {
    // not a URL we can read: fall through
  }
  return "png";
}
