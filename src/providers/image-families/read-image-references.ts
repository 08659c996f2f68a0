import { readContentsParts } from "./read-image-prompt.js";

/** One reference image of a JSON request and the field it came from, for messages. */
export interface ImageReference {
  value: string;
  param: string;
}

/** The reference images of a JSON request, in order: `image` (one or several), `images`, then `contents` image parts. */
export function readImageReferences(body: Record<string, unknown>): ImageReference[] {
  const references: ImageReference[] = [];
  if (typeof body.image === "string") references.push({ value: body.image, param: "image" });
  else if (Array.isArray(body.image))
    body.image.forEach((value, index) => {
      if (typeof value === "string") references.push({ value, param: `image[${index}]` });
    });
  if (Array.isArray(body.images))
    body.images.forEach((value, index) => {
      if (typeof value === "string") references.push({ value, param: `images[${index}]` });
    });
  readContentsParts(body).forEach((part, index) => {
    if (typeof part.image === "string") references.push({ value: part.image, param: `contents.parts[${index}].image` });
  });
  return references;
}
