import type { ImageFamilyName } from "../contract/image-family-rules.js";
import { parseReferenceImage } from "../image-families/parse-reference-image.js";
import { readImagePrompt } from "../image-families/read-image-prompt.js";
import { readImageReferences } from "../image-families/read-image-references.js";
import type { ArkImageRequest } from "./ark-image-wire.js";

/**
 * The client's image request (its own fields only, already checked by the family rules) → an ARK Seedream body for
 * the channel's model. Reference images from `image`, `images` and `contents` become ARK's `image` (one string for
 * a single image on a model that takes one, else an array; raw base64 becomes a data URI); `watermark` is always
 * sent (false unless asked). Options go up only when the client chose them: the sequential options only in `auto`
 * mode. `img-b-5-0-pro-260628` is asked for one image in the chosen `output_format`.
 */
export function convertImageRequestToArk(
  family: Extract<ImageFamilyName, "img-b" | "img-b-pro">,
  body: Record<string, unknown>,
  upstreamModel: string,
): ArkImageRequest {
  const references = readImageReferences(body).map((reference) => {
    const parsed = parseReferenceImage(reference);
    return parsed.kind === "url" ? parsed.url : `data:${parsed.mimeType};base64,${parsed.base64}`;
  });
  const request: ArkImageRequest = {
    model: upstreamModel,
    prompt: readImagePrompt(body),
    watermark: body.watermark === true,
  };
  if (references.length === 1 && !Array.isArray(body.image) && body.images === undefined) request.image = references[0];
  else if (references.length > 0) request.image = references;
  if (typeof body.size === "string") request.size = body.size;
  if (body.response_format === "url" || body.response_format === "b64_json")
    request.response_format = body.response_format;
  if (family === "img-b-pro") {
    request.output_format = typeof body.output_format === "string" ? body.output_format : "jpeg";
    return request;
  }
  if (typeof body.seed === "number") request.seed = body.seed;
  if (typeof body.guidance_scale === "number") request.guidance_scale = body.guidance_scale;
  if (body.sequential_image_generation === "auto" || body.sequential_image_generation === "disabled")
    request.sequential_image_generation = body.sequential_image_generation;
  const sequentialOptions = body.sequential_image_generation_options as { max_images?: unknown } | undefined;
  if (request.sequential_image_generation === "auto" && typeof sequentialOptions?.max_images === "number")
    request.sequential_image_generation_options = { max_images: sequentialOptions.max_images };
  const optimize = body.optimize_prompt_options as { mode?: unknown } | undefined;
  if (optimize !== undefined && optimize !== null)
    request.optimize_prompt_options = typeof optimize.mode === "string" ? { mode: optimize.mode } : {};
  return request;
}
