import type { ModelPrice } from "../config/gateway-config.js";
import { convertUsdTermsToUnits } from "./convert-usd-terms-to-units.js";

/**
 * What a request could cost at most: the prompt estimate at the input price plus the output cap at the output price
 * (plus per_call). A model priced only for audio or image output (speech, image generation by tokens) has no plain
 * output price, so the highest output price it has stands in; a text model with an audio price is not made to hold
 * the audio rate for every text request. Per-image and per-second models are reserved by the caller from
 * priceMeteredUsage with the requested count, which is their exact cost.
 */
export function computeWorstCaseCost(
  price: ModelPrice,
  groupRatio: number,
  promptTokenEstimate: number,
  maxOutputTokens: number,
): number {
  const outputPrice = price.output ?? maxDefined(price.audioOutput, price.imageOutput);
  return convertUsdTermsToUnits(
    [
      { quantity: promptTokenEstimate, usdPrice: price.input, per: 1_000_000 },
      { quantity: maxOutputTokens, usdPrice: outputPrice, per: 1_000_000 },
      { quantity: 1, usdPrice: price.perCall, per: 1 },
    ],
    groupRatio,
  );
}

function maxDefined(...values: Array<number | undefined>): number | undefined {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0 ? undefined : Math.max(...defined);
}
