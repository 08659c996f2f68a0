/** Usage as observed from an upstream, in tokens. */
export interface MeteredUsage {
  promptTokens: number;
  /** Includes reasoning tokens: billing uses this. */
  completionTokens: number;
  cachedTokens: number;
  /** Prompt tokens written to the provider's prompt cache (inside promptTokens, apart from cachedTokens: reads). */
  cacheWriteTokens?: number;
  reasoningTokens: number;
  /** Output tokens that were images or audio, when the upstream says so (priced by image_output / audio_output). */
  imageOutputTokens?: number;
  audioOutputTokens?: number;
  audioInputTokens?: number;
  /** Images produced, for models priced per_image. */
  imageCount?: number;
  /** Seconds of audio or video processed or produced, for models priced per_second (may be fractional). */
  durationSeconds?: number;
}
