import type { ModelPrice } from "../../config/gateway-config.js";
import { gmxImageFamily } from "./gmx-image-family.js";
import type { ImageFamilyRules } from "../contract/image-family-rules.js";
import { imgBFamily } from "./img-b-family.js";
import { findImgBModel } from "./img-b-models.js";
import { imgBProFamily } from "./img-b-pro-family.js";
import { imgCFamily } from "./img-c-family.js";
import { imgDFamily } from "./img-d-family.js";
import { perImageFamily } from "./per-image-family.js";

/**
 * The image family a model belongs to, by the documented image model ids (`gmx-…-image…`, the `img-b-`
 * table, `img-b-5-0-pro-`, `img-c-`, `img-d-`), or any model the operator priced per_image; undefined for a model
 * that is not an image model (the images API's documented 400 `invalid_request`).
 */
export function findImageFamily(model: string, price: ModelPrice | undefined): ImageFamilyRules | undefined {
  const lower = model.toLowerCase();
  if (lower.startsWith("gmx-")) return lower.includes("image") ? gmxImageFamily : priced(price);
  if (lower.startsWith("img-b-5-0-pro")) return imgBProFamily;
  if (findImgBModel(lower)) return imgBFamily;
  if (lower.startsWith("img-c-")) return imgCFamily;
  if (lower.startsWith("img-d-")) return imgDFamily;
  return priced(price);
}

function priced(price: ModelPrice | undefined): ImageFamilyRules | undefined {
  return price?.perImage !== undefined ? perImageFamily : undefined;
}
