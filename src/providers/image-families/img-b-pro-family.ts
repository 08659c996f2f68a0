import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { invalidImageParameter } from "./invalid-image-parameter.js";
import { parseReferenceImage } from "./parse-reference-image.js";
import { readImagePrompt } from "./read-image-prompt.js";
import { readImageReferences } from "./read-image-references.js";

const sizePattern = /^(1K|2K|[1-9][0-9]*x[1-9][0-9]*)$/;

/**
 * `img-b-5-0-pro-260628`, the documented single-model request: one output image per request whatever `n` or the number
 * of reference images (reserved and billed as one), size `1K`, `2K` or `WIDTHxHEIGHT`, output_format jpeg / png,
 * response_format url / b64_json, watermark default false.
 */
export const imgBProFamily: ImageFamilyRules = {
  name: "img-b-pro",
  assertRequest(model, call) {
    const body = call.body;
    if (call.kind === "multipart")
      throw new InvalidRequestError(`multipart/form-data is not supported for ${model}; send JSON with images.`);
    if (body.mask !== undefined) throw invalidImageParameter("mask", `mask is not supported by ${model}.`);
    readImagePrompt(body);
    for (const reference of readImageReferences(body)) parseReferenceImage(reference);
    if (body.size !== undefined && body.size !== null && !sizePattern.test(String(body.size)))
      throw invalidImageParameter(
        "size",
        `size ${String(body.size)} is not supported by ${model}; allowed: 1K, 2K or WIDTHxHEIGHT.`,
      );
    if (body.output_format !== undefined && body.output_format !== "jpeg" && body.output_format !== "png")
      throw invalidImageParameter("output_format", `output_format must be jpeg (default) or png for ${model}.`);
    if (body.response_format !== undefined && body.response_format !== "url" && body.response_format !== "b64_json")
      throw invalidImageParameter("response_format", `response_format must be url (default) or b64_json for ${model}.`);
    if (body.watermark !== undefined && typeof body.watermark !== "boolean")
      throw invalidImageParameter("watermark", "watermark must be true or false (default false).");
  },
  maximumImages: () => 1,
};
