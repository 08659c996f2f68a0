import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { invalidImageParameter } from "./invalid-image-parameter.js";
import { parseReferenceImage } from "./parse-reference-image.js";
import { readImgDMessages } from "./read-img-d-messages.js";

const maximumSeed = 2_147_483_647;
const sizePattern = /^[1-9][0-9]*\*[1-9][0-9]*$/;

/** True for the editing model of the family (`img-d-edit-plus`), which takes input images and several outputs. */
export function isImgDEditModel(model: string): boolean {
  return model.toLowerCase().startsWith("img-d-edit");
}

/**
 * `img-d-plus` (text to image) and `img-d-edit-plus` (editing, 1 to 3 input images, parameters.n 1 to 6):
 * input.messages required, parameters.size as `width*height`, response_format url or b64_json.
 */
export const imgDFamily: ImageFamilyRules = {
  name: "img-d",
  assertRequest(model, call) {
    if (call.kind === "multipart")
      throw new InvalidRequestError(
        `multipart/form-data is not supported for ${model}; send JSON with input.messages.`,
      );
    const body = call.body;
    const { text, images } = readImgDMessages(body, model);
    if (text.trim() === "")
      throw new InvalidRequestError("prompt is required and must not be empty: add a {text} part to input.messages.", {
        param: "input.messages",
      });
    const isEdit = isImgDEditModel(model);
    if (isEdit && (images.length < 1 || images.length > 3))
      throw invalidImageParameter(
        "input.messages",
        `${model} takes 1 to 3 input images ({image} parts); ${images.length} were given.`,
      );
    if (!isEdit && images.length > 0)
      throw invalidImageParameter(
        "input.messages",
        `${model} is text to image and takes no input images; use img-d-edit-plus to edit images.`,
      );
    for (const image of images) parseReferenceImage(image);
    if (body.size !== undefined && body.size !== null)
      throw invalidImageParameter(
        "size",
        `${model} takes its size as parameters.size, width*height such as 2048*2048.`,
      );
    if (body.n !== undefined && body.n !== null)
      throw invalidImageParameter("n", `${model} takes the image count as parameters.n.`);
    const parameters = (body.parameters ?? {}) as Record<string, unknown>;
    if (parameters.size !== undefined && !sizePattern.test(String(parameters.size)))
      throw invalidImageParameter(
        "parameters.size",
        `parameters.size ${String(parameters.size)} is not valid; use width*height such as 2048*2048.`,
      );
    const n = parameters.n;
    const maximumN = isEdit ? 6 : 1;
    if (n !== undefined && (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > maximumN))
      throw invalidImageParameter(
        "parameters.n",
        isEdit ? `parameters.n must be an integer from 1 to 6 for ${model}.` : `parameters.n must be 1 for ${model}.`,
      );
    const seed = parameters.seed;
    if (seed !== undefined && (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > maximumSeed))
      throw invalidImageParameter("parameters.seed", `parameters.seed must be an integer from 0 to ${maximumSeed}.`);
    for (const flag of ["watermark", "prompt_extend"] as const)
      if (parameters[flag] !== undefined && typeof parameters[flag] !== "boolean")
        throw invalidImageParameter(`parameters.${flag}`, `parameters.${flag} must be true or false.`);
    if (parameters.negative_prompt !== undefined && typeof parameters.negative_prompt !== "string")
      throw invalidImageParameter("parameters.negative_prompt", "parameters.negative_prompt must be text.");
    if (body.response_format !== undefined && body.response_format !== "url" && body.response_format !== "b64_json")
      throw invalidImageParameter("response_format", `response_format must be url (default) or b64_json for ${model}.`);
  },
  maximumImages(_model, call) {
    const n = (call.body.parameters as { n?: unknown } | undefined)?.n;
    return typeof n === "number" ? n : 1;
  },
};
