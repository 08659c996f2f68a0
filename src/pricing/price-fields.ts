import type { components } from "../../generated/types/management.js";
import type { ModelPrice } from "../config/gateway-config.js";

/** A price as the configuration file, the API and the store write it (snake_case keys). */
export type PriceFields = components["schemas"]["ModelPriceFields"];

/** The file's, the API's and the store's keys → the billing code's; keys left out stay unset. */
export function toModelPrice(fields: PriceFields): ModelPrice {
  const price: ModelPrice = {};
  if (fields.input !== undefined) price.input = fields.input;
  if (fields.output !== undefined) price.output = fields.output;
  if (fields.cached_input !== undefined) price.cachedInput = fields.cached_input;
  if (fields.cache_write_input !== undefined) price.cacheWriteInput = fields.cache_write_input;
  if (fields.audio_input !== undefined) price.audioInput = fields.audio_input;
  if (fields.audio_output !== undefined) price.audioOutput = fields.audio_output;
  if (fields.image_output !== undefined) price.imageOutput = fields.image_output;
  if (fields.per_image !== undefined) price.perImage = fields.per_image;
  if (fields.per_second !== undefined) price.perSecond = fields.per_second;
  if (fields.per_call !== undefined) price.perCall = fields.per_call;
  if (fields.max_output_tokens !== undefined) price.maxOutputTokens = fields.max_output_tokens;
  return price;
}

/** The billing code's keys → the file's, the API's and the store's; unset keys are left out. */
export function toPriceFields(price: ModelPrice): PriceFields {
  const fields: PriceFields = {};
  if (price.input !== undefined) fields.input = price.input;
  if (price.output !== undefined) fields.output = price.output;
  if (price.cachedInput !== undefined) fields.cached_input = price.cachedInput;
  if (price.cacheWriteInput !== undefined) fields.cache_write_input = price.cacheWriteInput;
  if (price.audioInput !== undefined) fields.audio_input = price.audioInput;
  if (price.audioOutput !== undefined) fields.audio_output = price.audioOutput;
  if (price.imageOutput !== undefined) fields.image_output = price.imageOutput;
  if (price.perImage !== undefined) fields.per_image = price.perImage;
  if (price.perSecond !== undefined) fields.per_second = price.perSecond;
  if (price.perCall !== undefined) fields.per_call = price.perCall;
  if (price.maxOutputTokens !== undefined) fields.max_output_tokens = price.maxOutputTokens;
  return fields;
}

/**
 * What the price costs in a group of this ratio: every money amount multiplied, the output cap kept. Rounded to
 * 12 significant digits so 0.15 × 2 reads 0.3, not 0.30000000000000004.
 */
export function applyGroupRatio(fields: PriceFields, ratio: number): PriceFields {
  const scaled: PriceFields = {};
  for (const [key, value] of Object.entries(fields) as Array<[keyof PriceFields, number]>)
    scaled[key] = key === "max_output_tokens" ? value : Number((value * ratio).toPrecision(12));
  return scaled;
}
