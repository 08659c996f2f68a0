import { FormData } from "undici";
import type { ImgCInputImage } from "./img-c-input-image.js";

/** The `img-c-2` call for an OpenAI images API: JSON generations, or a multipart edit with `image[]` parts. */
export type ImgCUpstreamRequest =
  | { operation: "images/generations"; json: Record<string, unknown> }
  | { operation: "images/edits"; form: FormData };

/** Fields of the client's request that are ours to translate, not to forward. */
const translatedFields = new Set(["model", "image", "images", "contents", "response_format", "image[]", "mask"]);

/**
 * The client's `img-c-2` request (its own fields; checked by the family rules) → OpenAI's images API for the
 * channel's model. The image document's defaults are sent explicitly (size 1024x1024, quality high) because the
 * API's own are `auto`; `response_format` never goes (GPT-image models refuse it and always answer base64). With
 * input images it is an edit: multipart, one `image[]` part per image, `input_fidelity` with them; the client's
 * other fields go along as text fields (the API's remaining fields are not the image document's to restrict).
 */
export function buildImgCUpstreamRequest(
  body: Record<string, unknown>,
  upstreamModel: string,
  inputImages: readonly ImgCInputImage[],
  prompt: string,
  mask?: ImgCInputImage,
): ImgCUpstreamRequest {
  const fields: Record<string, unknown> = { model: upstreamModel, prompt };
  for (const [name, value] of Object.entries(body))
    if (!translatedFields.has(name) && name !== "prompt" && value !== undefined && value !== null) fields[name] = value;
  fields.size ??= "1024x1024";
  fields.quality ??= "high";
  if (fields.n !== undefined) fields.n = Number(fields.n);
  if (inputImages.length === 0) return { operation: "images/generations", json: fields };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  for (const image of inputImages)
    form.append("image[]", new Blob([image.bytes], { type: image.mimeType }), image.filename);
  if (mask) form.append("mask", new Blob([mask.bytes], { type: mask.mimeType }), mask.filename);
  return { operation: "images/edits", form };
}
