const twoKQualities: ReadonlySet<string> = new Set(["hd", "high", "2k"]);

/**
 * OpenAI `quality` → native imageConfig.imageSize: `hd`, `high`, `2K` give 2K; everything else (`standard`, `medium`,
 * `low`, `auto`, `1K`, absent, or a value the product documents do not name) gives 1K, the cheaper tier.
 */
export function mapImageQualityToSize(quality: string | null | undefined): "1K" | "2K" {
  return typeof quality === "string" && twoKQualities.has(quality.trim().toLowerCase()) ? "2K" : "1K";
}
