import { describe, expect, it } from "vitest";
import { findModelPrice } from "./find-model-price.js";

describe("findModelPrice", () => {
  const pricing = { "gmx-2.5-flash": { input: 0.3, output: 2.5 }, "free-on-purpose": {} };

  it("answers the entry of exactly the name, an empty entry included (priced at zero on purpose)", () => {
    expect(findModelPrice(pricing, "gmx-2.5-flash")).toEqual({ input: 0.3, output: 2.5 });
    expect(findModelPrice(pricing, "free-on-purpose")).toEqual({});
    expect(findModelPrice(pricing, "gmx-2.5-flash-thinking")).toBeUndefined();
  });

  it("never takes a property every object inherits for a price", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(findModelPrice(pricing, name)).toBeUndefined();
  });
});
