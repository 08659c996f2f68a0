import type { ModelPrice } from "../config/gateway-config.js";
import { findModelPrice } from "./find-model-price.js";
import { parseModelSuffix, type ThinkingSuffix } from "./parse-model-suffix.js";

/**
 * Which names a surface reads a thinking suffix on. Native-family (`gmx-`) names carry one everywhere: there the
 * suffix is a directive, never a model name of its own. `any-model` adds every other name on the native endpoints'
 * `{model}` path (the spec documents the suffixes there, and only native channels serve those endpoints), unless a
 * channel serves the name as it is; `native-family` keeps the OpenAI surfaces to `gmx-` names (other vendors have
 * real models whose names end in `-thinking`, and a `kimi-k2-thinking` is not `kimi-k2`); `none` reads no suffix
 * at all (images, audio, video, embeddings).
 */
export type ThinkingSuffixScope = "any-model" | "native-family" | "none";

/**
 * What a model name means for one request, read once and used by routing, model limits and billing alike, so a
 * request is never priced or limited as another model than the one it is routed to.
 */
export interface ModelNameResolution {
  /** The name as the client sent it: usage logs and messages keep it. */
  model: string;
  /** The model the name stands for (its thinking suffix split off): model limits and the price fall back to it. */
  baseModel: string;
  /**
   * The name channels are looked up by: the base model, or the name as sent when a channel lists that variant
   * itself (an operator may route `gmx-2.5-flash-thinking` to its own channel).
   */
  routingModel: string;
  /**
   * The suffix as the client wrote it (`-thinking-1024`) when routing by the base model, appended again to the
   * channel's mapped name; "" when the name routes as it is.
   */
  suffix: string;
  /** The thinking directive that suffix carries. */
  thinking: ThinkingSuffix | undefined;
  /**
   * The pricing entry that applies: the name as sent when the operator priced it on purpose, else the base model
   * (thinking tokens are billed as output already, so a suffix needs no price of its own).
   */
  priceModel: string;
  /** That entry; undefined when the operator priced neither name. */
  price: ModelPrice | undefined;
}

export interface ModelNameContext {
  pricing: Record<string, ModelPrice>;
  scope: ThinkingSuffixScope;
  /** Whether a channel the caller may use lists this exact name; asked only of names that carry a suffix. */
  isServed(model: string): boolean;
}

/** Reads a model name as the rules of ThinkingSuffixScope say. */
export function resolveModelName(model: string, context: ModelNameContext): ModelNameResolution {
  const split = context.scope === "none" ? undefined : splitThinkingSuffix(model);
  if (split === undefined) return exactModelName(model, context.pricing);
  const nativeFamily = /^gmx-/i.test(model);
  if (!nativeFamily && context.scope !== "any-model") return exactModelName(model, context.pricing);
  const servedAsIs = context.isServed(model);
  if (servedAsIs && !nativeFamily) return exactModelName(model, context.pricing);
  const ownPrice = findModelPrice(context.pricing, model);
  return {
    model,
    baseModel: split.baseModel,
    routingModel: servedAsIs ? model : split.baseModel,
    suffix: servedAsIs ? "" : model.slice(split.baseModel.length),
    thinking: servedAsIs ? undefined : split.thinking,
    priceModel: ownPrice ? model : split.baseModel,
    price: ownPrice ?? findModelPrice(context.pricing, split.baseModel),
  };
}

/**
 * A name some channel lists (for model lists): what it stands for, whatever the surface. Only native-family
 * names stand for another model; any other listed name is a model of its own.
 */
export function resolveListedModelName(model: string, pricing: Record<string, ModelPrice>): ModelNameResolution {
  return resolveModelName(model, { pricing, scope: "any-model", isServed: () => true });
}

/** A name taken as it is: routed, limited and priced by itself. */
export function exactModelName(model: string, pricing: Record<string, ModelPrice>): ModelNameResolution {
  return {
    model,
    baseModel: model,
    routingModel: model,
    suffix: "",
    thinking: undefined,
    priceModel: model,
    price: findModelPrice(pricing, model),
  };
}

function splitThinkingSuffix(model: string): { baseModel: string; thinking: ThinkingSuffix } | undefined {
  const { upstreamModel, suffix } = parseModelSuffix(model);
  return suffix === undefined ? undefined : { baseModel: upstreamModel, thinking: suffix };
}
