import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { findImgBModel, type ImgBModel } from "./img-b-models.js";
import { invalidImageParameter } from "./invalid-image-parameter.js";
import { listAllowed } from "./list-allowed.js";
import { parseReferenceImage } from "./parse-reference-image.js";
import { readImagePrompt } from "./read-image-prompt.js";
import { readImageReferences } from "./read-image-references.js";

const maximumSeed = 2_147_483_647;
const defaultMaxImages = 4;

function modelOf(model: string): ImgBModel {
  const found = findImgBModel(model);
  if (!found) throw new InvalidRequestError(`${model} is not an img-b- image model.`, { param: "model" });
  return found;
}

/**
 * The `img-b-` family (3.0 t2i, the 3.0 edit model, 4.0 and 4.5), by the second seed document: sizes from the
 * model's list, reference images by model, guidance_scale only for the 3.0 models, the sequential mode and
 * prompt optimisation only for 4.0 / 4.5 (`fast` for 4.0 only), seed 0..2147483647, a boolean watermark.
 */
export const imgBFamily: ImageFamilyRules = {
  name: "img-b",
  assertRequest(model, call) {
    const rules = modelOf(model);
    const body = call.body;
    if (call.kind === "multipart")
      throw new InvalidRequestError(
        `multipart/form-data is not supported for ${model}; send JSON with an image field.`,
      );
    if (body.mask !== undefined) throw invalidImageParameter("mask", `mask is not supported by ${model}.`);
    readImagePrompt(body);
    const references = readImageReferences(body);
    if (rules.images === "none" && references.length > 0)
      throw invalidImageParameter("image", `image is not supported by ${model} (text to image only).`);
    if (rules.images === "one" && references.length !== 1)
      throw invalidImageParameter("image", `${model} takes exactly one image; ${references.length} were given.`);
    for (const reference of references) parseReferenceImage(reference);

    if (body.size !== undefined && body.size !== null && !rules.sizes.includes(String(body.size)))
      throw invalidImageParameter(
        "size",
        `size ${String(body.size)} is not supported by ${model}; allowed: ${listAllowed(rules.sizes)}.`,
      );
    if (body.seed !== undefined) {
      const seed = body.seed;
      if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > maximumSeed)
        throw invalidImageParameter("seed", `seed must be an integer from 0 to ${maximumSeed}.`);
    }
    if (body.watermark !== undefined && typeof body.watermark !== "boolean")
      throw invalidImageParameter("watermark", "watermark must be true or false (default false).");
    if (body.guidance_scale !== undefined) {
      if (!rules.guidanceScale)
        throw invalidImageParameter(
          "guidance_scale",
          `guidance_scale is not supported by ${model}; only img-b-3-0-t2i-250415 and img-b-edit-3-0-i2i-250628 take it.`,
        );
      const scale = body.guidance_scale;
      if (typeof scale !== "number" || scale < 1 || scale > 10)
        throw invalidImageParameter(
          "guidance_scale",
          "guidance_scale must be a number from 1.0 to 10.0 (default 2.5).",
        );
    }
    assertSequential(model, rules, body);
    assertOptimizePrompt(model, rules, body);
    if (body.response_format !== undefined && body.response_format !== "url" && body.response_format !== "b64_json")
      throw invalidImageParameter("response_format", "response_format must be url or b64_json.");
  },
  maximumImages(_model, call) {
    if (call.body.sequential_image_generation !== "auto") return 1;
    const options = call.body.sequential_image_generation_options as { max_images?: unknown } | undefined;
    return typeof options?.max_images === "number" ? options.max_images : defaultMaxImages;
  },
};

function assertSequential(model: string, rules: ImgBModel, body: Record<string, unknown>): void {
  const mode = body.sequential_image_generation;
  const options = body.sequential_image_generation_options;
  if (!rules.sequential) {
    if (mode !== undefined || options !== undefined)
      throw invalidImageParameter(
        mode !== undefined ? "sequential_image_generation" : "sequential_image_generation_options",
        `sequential_image_generation is not supported by ${model}; only img-b-4-0-250828 and img-b-4-5-251128 take it.`,
      );
    return;
  }
  if (mode !== undefined && mode !== "auto" && mode !== "disabled")
    throw invalidImageParameter(
      "sequential_image_generation",
      "sequential_image_generation must be auto or disabled (default disabled).",
    );
  if (options === undefined) return;
  const maxImages = (options as { max_images?: unknown } | null)?.max_images;
  if (
    maxImages !== undefined &&
    (typeof maxImages !== "number" || !Number.isInteger(maxImages) || maxImages < 1 || maxImages > 4)
  )
    throw invalidImageParameter(
      "sequential_image_generation_options.max_images",
      "sequential_image_generation_options.max_images must be an integer from 1 to 4 (default 4).",
    );
}

function assertOptimizePrompt(model: string, rules: ImgBModel, body: Record<string, unknown>): void {
  const options = body.optimize_prompt_options;
  if (options === undefined) return;
  if (rules.optimizeModes.length === 0)
    throw invalidImageParameter(
      "optimize_prompt_options",
      `optimize_prompt_options is not supported by ${model}; only img-b-4-0-250828 and img-b-4-5-251128 take it.`,
    );
  const mode = (options as { mode?: unknown } | null)?.mode;
  if (mode !== undefined && !rules.optimizeModes.includes(String(mode)))
    throw invalidImageParameter(
      "optimize_prompt_options.mode",
      `optimize_prompt_options.mode ${String(mode)} is not supported by ${model}; allowed: ${listAllowed(rules.optimizeModes)}${rules.id === "img-b-4-5-251128" ? " (fast is for img-b-4-0-250828 only)" : ""}.`,
    );
}
