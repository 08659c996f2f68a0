import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { readImagePrompt } from "./read-image-prompt.js";

/**
 * The native `gmx-` image models: JSON only (no multipart, no mask), a non-empty prompt (or `contents` text), one
 * image per call whatever `n` says (n is ignored, not refused). Reference images are checked as they are read.
 */
export const gmxImageFamily: ImageFamilyRules = {
  name: "gmx",
  assertRequest(model, call) {
    if (call.kind === "multipart" || call.body.mask !== undefined)
      throw new InvalidRequestError(
        `multipart/form-data and mask are not supported for ${model}; send JSON with an image field.`,
      );
    readImagePrompt(call.body);
  },
  maximumImages: () => 1,
};
