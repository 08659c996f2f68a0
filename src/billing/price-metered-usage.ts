import type { ModelPrice } from "../config/gateway-config.js";
import { convertUsdTermsToUnits } from "./convert-usd-terms-to-units.js";
import type { MeteredUsage } from "./metered-usage.js";

const PER_MILLION = 1_000_000;

/**
 * The units one request's usage costs. Upstreams report cached (read and written) and audio input inside prompt
 * tokens and reasoning,
 * image and audio output inside completion tokens, so each part is split off and priced at its own rate (falling back
 * to the plain input / output rate), and the rest is priced as text. A part larger than its whole (a confused
 * upstream) is capped at the whole, so nothing is billed twice. per_image, per_second and per_call are flat USD.
 */
export function priceMeteredUsage(price: ModelPrice, groupRatio: number, usage: MeteredUsage): number {
  const promptTokens = Math.max(0, usage.promptTokens);
  const cachedTokens = clamp(usage.cachedTokens, promptTokens);
  const cacheWriteTokens = clamp(usage.cacheWriteTokens ?? 0, promptTokens - cachedTokens);
  const audioInputTokens = clamp(usage.audioInputTokens ?? 0, promptTokens - cachedTokens - cacheWriteTokens);
  // Without its own price a cache write costs 1.25 × input: priced as 1.25 × the tokens (exact for any count).
  const cacheWrite =
    price.cacheWriteInput !== undefined
      ? { quantity: cacheWriteTokens, usdPrice: price.cacheWriteInput, per: PER_MILLION }
      : { quantity: cacheWriteTokens * 1.25, usdPrice: price.input, per: PER_MILLION };
  const completionTokens = Math.max(0, usage.completionTokens);
  const imageOutputTokens = clamp(usage.imageOutputTokens ?? 0, completionTokens);
  const audioOutputTokens = clamp(usage.audioOutputTokens ?? 0, completionTokens - imageOutputTokens);
  return convertUsdTermsToUnits(
    [
      {
        quantity: promptTokens - cachedTokens - cacheWriteTokens - audioInputTokens,
        usdPrice: price.input,
        per: PER_MILLION,
      },
      { quantity: cachedTokens, usdPrice: price.cachedInput ?? price.input, per: PER_MILLION },
      cacheWrite,
      { quantity: audioInputTokens, usdPrice: price.audioInput ?? price.input, per: PER_MILLION },
      { quantity: completionTokens - imageOutputTokens - audioOutputTokens, usdPrice: price.output, per: PER_MILLION },
      { quantity: imageOutputTokens, usdPrice: price.imageOutput ?? price.output, per: PER_MILLION },
      { quantity: audioOutputTokens, usdPrice: price.audioOutput ?? price.output, per: PER_MILLION },
      { quantity: usage.imageCount ?? 0, usdPrice: price.perImage, per: 1 },
      { quantity: usage.durationSeconds ?? 0, usdPrice: price.perSecond, per: 1 },
      { quantity: 1, usdPrice: price.perCall, per: 1 },
    ],
    groupRatio,
  );
}

function clamp(value: number, maximum: number): number {
  return Math.min(Math.max(0, value), Math.max(0, maximum));
}
