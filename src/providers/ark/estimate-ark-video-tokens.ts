// The provider counts about one output token per 1024 pixels of every frame: 720p (1280×720, or the same area in
// another ratio) × 121 frames (5 s at 24 fps, plus the first) is the 108,900 completion tokens of its own example.
const pixelsPerFrame = new Map<string, number>([
  ["480p", 854 * 480],
  ["720p", 1280 * 720],
  ["1080p", 1920 * 1080],
]);

/** Upper estimate of the completion tokens a task will be billed, for models priced per 1M output tokens. */
export function estimateArkVideoTokens(resolution: string, frames: number): number {
  const pixels = pixelsPerFrame.get(resolution) ?? 1920 * 1080;
  return Math.ceil((pixels * frames) / 1024);
}
