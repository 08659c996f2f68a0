import { describe, expect, it } from "vitest";
import { findModelPrice } from "./find-model-price.js";

describe("findModelPrice", () => {
  const pricing = {
    "gmx-2.5-flash": { input: 0.3, output: 2.5 },
    "gmx-2.5-flash-thinking": { input: 1, output: 5 },
    "other-thinking": { input: 9 },
  };

  it("prefers the exact name, then the native base model of a thinking suffix", () => {
    expect(findModelPrice(pricing, "gmx-2.5-flash")).toEqual({ input: 0.3, output: 2.5 });
    expect(findModelPrice(pricing, "gmx-2.5-flash-thinking")).toEqual({ input: 1, output: 5 });
    expect(findModelPrice(pricing, "gmx-2.5-flash-thinking-1024")).toEqual({ input: 0.3, output: 2.5 });
    expect(findModelPrice(pricing, "gmx-2.5-flash-nothinking")).toEqual({ input: 0.3, output: 2.5 });
  });

  it("does not strip suffixes of other families, and answers undefined for unpriced models", () => {
    expect(findModelPrice(pricing, "kimi-k2-thinking")).toBeUndefined();
    expect(findModelPrice(pricing, "gmx-9-unknown")).toBeUndefined();
  });
});
