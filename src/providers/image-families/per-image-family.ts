import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { readIntegerField } from "./read-integer-field.js";

/**
 * A model outside the documented image families that the operator priced per_image: an image model the gateway knows
 * nothing more about, passed through to OpenAI-compatible channels as sent. It may return `n` images (at most 10).
 */
export const perImageFamily: ImageFamilyRules = {
  name: "per-image",
  assertRequest() {},
  maximumImages(_model, call) {
    const n = readIntegerField(call.body.n) ?? 1;
    return Number.isInteger(n) && n >= 1 ? Math.min(n, 10) : 1;
  },
};
