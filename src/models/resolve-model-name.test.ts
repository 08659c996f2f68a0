import { describe, expect, it } from "vitest";
import { resolveModelName, type ModelNameContext } from "./resolve-model-name.js";

const pricing = {
  "gem-pro": { input: 10, output: 20 },
  "gmx-2.5-flash": { input: 0.3, output: 2.5 },
  "gmx-2.5-flash-thinking-high": { input: 1, output: 5 },
  "kimi-k2": { input: 1 },
};
const served = new Set(["gem-pro", "gmx-2.5-flash", "gmx-2.5-flash-thinking", "kimi-k2", "own-thinking"]);
const context = (scope: ModelNameContext["scope"]): ModelNameContext => ({
  pricing,
  scope,
  isServed: (name) => served.has(name),
});

describe("resolveModelName", () => {
  it("routes, limits and prices a thinking variant as its base model on the native path, whatever the family", () => {
    for (const suffix of ["-thinking", "-thinking-low", "-thinking-2048", "-nothinking"]) {
      expect(resolveModelName(`gem-pro${suffix}`, context("any-model"))).toMatchObject({
        model: `gem-pro${suffix}`,
        baseModel: "gem-pro",
        routingModel: "gem-pro",
        suffix,
        priceModel: "gem-pro",
        price: { input: 10, output: 20 },
      });
    }
  });

  it("keeps a price the operator gave the suffixed name itself", () => {
    expect(resolveModelName("gmx-2.5-flash-thinking-high", context("native-family"))).toMatchObject({
      baseModel: "gmx-2.5-flash",
      suffix: "-thinking-high",
      thinking: { kind: "level", level: "HIGH" },
      priceModel: "gmx-2.5-flash-thinking-high",
      price: { input: 1, output: 5 },
    });
  });

  it("on the OpenAI surfaces splits only native-family names", () => {
    expect(resolveModelName("gmx-2.5-flash-thinking-1024", context("native-family"))).toMatchObject({
      baseModel: "gmx-2.5-flash",
      suffix: "-thinking-1024",
      priceModel: "gmx-2.5-flash",
    });
    expect(resolveModelName("kimi-k2-thinking", context("native-family"))).toMatchObject({
      baseModel: "kimi-k2-thinking",
      suffix: "",
      price: undefined,
    });
    expect(resolveModelName("gem-pro-thinking", context("none"))).toMatchObject({ baseModel: "gem-pro-thinking" });
  });

  it("routes a native-family variant a channel lists by itself, still limited and priced as its base model", () => {
    expect(resolveModelName("gmx-2.5-flash-thinking", context("native-family"))).toMatchObject({
      baseModel: "gmx-2.5-flash",
      routingModel: "gmx-2.5-flash-thinking",
      suffix: "",
      thinking: undefined,
      priceModel: "gmx-2.5-flash",
      price: { input: 0.3, output: 2.5 },
    });
  });

  it("takes another family's name some channel serves as a model of its own, and leaves names without a trailing suffix alone", () => {
    expect(resolveModelName("own-thinking", context("any-model"))).toMatchObject({
      baseModel: "own-thinking",
      routingModel: "own-thinking",
      suffix: "",
      thinking: undefined,
      priceModel: "own-thinking",
      price: undefined,
    });
    expect(resolveModelName("gmx-2.0-flash-thinking-exp", context("any-model"))).toMatchObject({
      baseModel: "gmx-2.0-flash-thinking-exp",
      suffix: "",
    });
  });
});
