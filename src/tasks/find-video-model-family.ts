import { vidAFamily } from "./families/vid-a-family.js";
import { vidBFamily } from "./families/vid-b-family.js";
import { vidCFamily } from "./families/vid-c-family.js";
import { vidDEFamily } from "./families/vid-d-e-family.js";
import type { VideoModelFamily } from "./video-model-family.js";

/** Every video family the gateway knows; the first that matches a model serves it. */
const videoModelFamilies: readonly VideoModelFamily[] = [vidAFamily, vidBFamily, vidCFamily, vidDEFamily];

export function findVideoModelFamily(model: string): VideoModelFamily | undefined {
  return videoModelFamilies.find((family) => family.matches(model));
}
