/** What one `img-b-` model takes: its sizes, how many reference images, and which optional features. */
export interface ImgBModel {
  /** The documented model id, named in messages. */
  id: string;
  sizes: readonly string[];
  /** Reference images: none (text to image), exactly one (the edit model) or several. */
  images: "none" | "one" | "several";
  guidanceScale: boolean;
  sequential: boolean;
  /** optimize_prompt_options.mode values; empty when the model has no prompt optimisation. */
  optimizeModes: readonly string[];
}

const sizes30 = ["1024x1024", "1152x864", "864x1152", "1280x720", "720x1280", "1248x832", "832x1248", "1512x648"];
const sizes2K = [
  "2048x2048",
  "2304x1728",
  "1728x2304",
  "2560x1440",
  "1440x2560",
  "2496x1664",
  "1664x2496",
  "3024x1296",
];
const sizes4K = [
  "4096x4096",
  "4704x3520",
  "3520x4704",
  "5504x3040",
  "3040x5504",
  "4992x3328",
  "3328x4992",
  "6240x2656",
];

/** The documented `img-b-` table; a dated variant of an id (another date suffix) follows its stem. */
const models: ReadonlyArray<{ stem: string; model: ImgBModel }> = [
  {
    stem: "img-b-3-0-t2i-",
    model: {
      id: "img-b-3-0-t2i-250415",
      sizes: sizes30,
      images: "none",
      guidanceScale: true,
      sequential: false,
      optimizeModes: [],
    },
  },
  {
    stem: "img-b-edit-3-0-i2i-",
    model: {
      id: "img-b-edit-3-0-i2i-250628",
      sizes: sizes30,
      images: "one",
      guidanceScale: true,
      sequential: false,
      optimizeModes: [],
    },
  },
  {
    stem: "img-b-4-0-",
    model: {
      id: "img-b-4-0-250828",
      sizes: [...sizes2K, ...sizes4K],
      images: "several",
      guidanceScale: false,
      sequential: true,
      optimizeModes: ["standard", "fast"],
    },
  },
  {
    stem: "img-b-4-5-",
    model: {
      id: "img-b-4-5-251128",
      sizes: [...sizes2K, ...sizes4K],
      images: "several",
      guidanceScale: false,
      sequential: true,
      optimizeModes: ["standard"],
    },
  },
];

/** The `img-b-` model (not the 5.0 pro single-model) a model id names, or undefined. */
export function findImgBModel(model: string): ImgBModel | undefined {
  const lower = model.toLowerCase();
  return models.find((entry) => lower.startsWith(entry.stem))?.model;
}
