import type { ModelPrice } from "../../config/gateway-config.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { findImageFamily } from "./find-image-family.js";
import type { ImageRequestFields } from "../contract/image-request-fields.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";

/**
 * The family of an image request's model, its rules already enforced: every refusal happens here, before a
 * channel is chosen or quota reserved. A model that is no image model is the images API's documented 400
 * `invalid_request`.
 */
export function resolveImageFamily(
  model: string,
  call: ImageRequestFields,
  price: ModelPrice | undefined,
): ImageFamilyRules {
  const family = findImageFamily(model, price);
  if (!family)
    throw new InvalidRequestError(
      `${model} is not an image model; use an image model such as img-b-4-0-250828, img-c-2, img-d-plus or gmx-2.5-flash-image.`,
      { param: "model" },
    );
  family.assertRequest(model, call);
  return family;
}
