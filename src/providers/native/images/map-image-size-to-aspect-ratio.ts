/** The documented fixed OpenAI sizes and the aspect ratio each one means to the native family. */
const aspectRatiosBySize: ReadonlyMap<string, string> = new Map([
  ["256x256", "1:1"],
  ["512x512", "1:1"],
  ["1024x1024", "1:1"],
  ["1536x1024", "3:2"],
  ["1024x1536", "2:3"],
  ["1024x1792", "9:16"],
  ["1792x1024", "16:9"],
]);

const ratioPattern = /^\d+:\d+$/;

/**
 * OpenAI `size` → native imageConfig.aspectRatio. A ratio such as `16:9` is passed as given; an absent or unknown
 * size gives undefined, so the upstream applies the model's default (usually 1:1) rather than a guess of ours.
 */
export function mapImageSizeToAspectRatio(size: string | null | undefined): string | undefined {
  if (size === null || size === undefined) return undefined;
  const trimmed = size.trim().toLowerCase();
  if (ratioPattern.test(trimmed)) return trimmed;
  return aspectRatiosBySize.get(trimmed);
}
