import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageRequestFields } from "../contract/image-request-fields.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { invalidImageParameter } from "./invalid-image-parameter.js";
import { listAllowed } from "./list-allowed.js";
import { parseReferenceImage } from "./parse-reference-image.js";
import { readImagePrompt } from "./read-image-prompt.js";
import { readImageReferences } from "./read-image-references.js";
import { readIntegerField } from "./read-integer-field.js";

export const imgCSizes = ["1024x1024", "1024x1536", "1536x1024"] as const;
const qualities = ["low", "medium", "high"];
const fidelities = ["low", "medium", "high", "auto"];

/** How many input images the call carries: multipart file parts, or JSON references. */
export function countImgCInputImages(call: ImageRequestFields): number {
  if (call.kind === "multipart") return call.files.filter((file) => file.fieldname !== "mask").length;
  return readImageReferences(call.body).length;
}

/**
 * `img-c-2`: sizes 1024x1024 (default), 1024x1536, 1536x1024; quality low / medium / high (default high); n 1..10,
 * each image billed; input_fidelity only with an input image; only b64_json (a `response_format: url` is refused
 * rather than silently answered otherwise).
 */
export const imgCFamily: ImageFamilyRules = {
  name: "img-c",
  assertRequest(model, call) {
    const body = call.body;
    readImagePrompt(body);
    if (call.kind === "json") for (const reference of readImageReferences(body)) parseReferenceImage(reference);
    if (call.kind === "multipart" && call.files.some((file) => file.fieldname !== "mask") === false)
      throw new InvalidRequestError("image[] is required for a multipart edit.", { param: "image[]" });
    if (body.size !== undefined && body.size !== null && !(imgCSizes as readonly string[]).includes(String(body.size)))
      throw invalidImageParameter(
        "size",
        `size ${String(body.size)} is not supported by ${model}; allowed: ${listAllowed(imgCSizes)} (default 1024x1024).`,
      );
    if (body.quality !== undefined && body.quality !== null && !qualities.includes(String(body.quality)))
      throw invalidImageParameter(
        "quality",
        `quality ${String(body.quality)} is not supported by ${model}; allowed: ${listAllowed(qualities)} (default high).`,
      );
    const n = readIntegerField(body.n);
    if (n !== undefined && !(n >= 1 && n <= 10))
      throw invalidImageParameter("n", `n must be an integer from 1 to 10 for ${model}.`);
    if (body.response_format !== undefined && body.response_format !== null && body.response_format !== "b64_json")
      throw invalidImageParameter(
        "response_format",
        `response_format ${String(body.response_format)} is not supported by ${model}; only b64_json is.`,
      );
    if (body.input_fidelity !== undefined && body.input_fidelity !== null) {
      if (!fidelities.includes(String(body.input_fidelity)))
        throw invalidImageParameter("input_fidelity", `input_fidelity must be ${listAllowed(fidelities)}.`);
      if (countImgCInputImages(call) === 0)
        throw invalidImageParameter(
          "input_fidelity",
          `input_fidelity applies to image-to-image only: send an image with it, or leave it out.`,
        );
    }
  },
  maximumImages(_model, call) {
    return readIntegerField(call.body.n) ?? 1;
  },
};
