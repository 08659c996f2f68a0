import type { ImageRequestFields } from "./image-request-fields.js";

/** The documented image families, plus models only known as priced per_image. */
export type ImageFamilyName = "gmx" | "img-b" | "img-b-pro" | "img-c" | "img-d" | "per-image";

/** One family's rules: which requests its models accept, and how many images one request can return. */
export interface ImageFamilyRules {
  name: ImageFamilyName;
  /** Throws InvalidRequestError (`invalid_parameter` or `invalid_request`) for a request the model refuses. */
  assertRequest(model: string, call: ImageRequestFields): void;
  /** The most images the request can return: what the reservation holds at per_image. */
  maximumImages(model: string, call: ImageRequestFields): number;
}
