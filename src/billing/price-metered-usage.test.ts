import { describe, expect, it } from "vitest";
import { buildInsufficientQuotaMessage } from "./build-insufficient-quota-message.js";
import { computeWorstCaseCost } from "./compute-worst-case-cost.js";
import { formatUnitsAsUsd } from "./format-units-as-usd.js";
import type { MeteredUsage } from "./metered-usage.js";
import { parseDecimal } from "./parse-decimal.js";
import { priceMeteredUsage } from "./price-metered-usage.js";

function usage(overrides: Partial<MeteredUsage>): MeteredUsage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, ...overrides };
}

describe("priceMeteredUsage", () => {
  it("prices 10 prompt + 5 completion tokens at input 2, output 4 as exactly 20 units", () => {
    expect(priceMeteredUsage({ input: 2, output: 4 }, 1, usage({ promptTokens: 10, completionTokens: 5 }))).toBe(20);
  });

  it("applies a group ratio of 1.2 exactly", () => {
    expect(priceMeteredUsage({ input: 2, output: 4 }, 1.2, usage({ promptTokens: 10, completionTokens: 5 }))).toBe(24);
  });

  it("rounds the exact rational half up where floating point would land below the half", () => {
    // 13 × 2.5 / 1M USD × 1.2 = 19.5 units exactly; 13 * 2.5 / 1e6 * 1.2 * 500000 is 19.499999999999996 in floats.
    expect(priceMeteredUsage({ input: 2.5 }, 1.2, usage({ promptTokens: 13 }))).toBe(20);
    // 180 × 0.35 / 2 = 31.5 exactly; floats give 31.499999999999993.
    expect(priceMeteredUsage({ input: 0.35 }, 1, usage({ promptTokens: 180 }))).toBe(32);
    expect(priceMeteredUsage({ input: 1 }, 1, usage({ promptTokens: 1 }))).toBe(1); // 0.5 → 1
    expect(priceMeteredUsage({ input: 0.15 }, 1, usage({ promptTokens: 3 }))).toBe(0); // 0.225 → 0
    expect(priceMeteredUsage({ input: 0.15 }, 1, usage({ promptTokens: 7 }))).toBe(1); // 0.525 → 1
  });

  it("prices prompt cache writes at cache_write_input, or at 1.25 × input when none is set", () => {
    // 1000 prompt tokens: 600 written to the cache, 200 read from it, 200 plain; 100 output.
    const cacheUsage = usage({ promptTokens: 1000, cachedTokens: 200, cacheWriteTokens: 600, completionTokens: 100 });
    // (200 × 2 + 200 × 0.5 + 600 × 3 + 100 × 8) USD per 1M × 500,000 units per USD = 1550
    expect(priceMeteredUsage({ input: 2, cachedInput: 0.5, cacheWriteInput: 3, output: 8 }, 1, cacheUsage)).toBe(1550);
    // 600 × 2.5 instead: 1400; a cache write larger than the uncached prompt is capped at it.
    expect(priceMeteredUsage({ input: 2, cachedInput: 0.5, output: 8 }, 1, cacheUsage)).toBe(1400);
    expect(
      priceMeteredUsage({ input: 2, output: 8 }, 1, usage({ promptTokens: 10, cachedTokens: 4, cacheWriteTokens: 99 })),
    ).toBe(Math.round((4 * 2 + 6 * 2.5) / 2));
  });

  it("prices cached prompt tokens at cached_input, or at input when none is set", () => {
    const cachedUsage = usage({ promptTokens: 1000, cachedTokens: 800, completionTokens: 100 });
    // 200 × 2 + 800 × 0.5 + 100 × 8 = 1600 micro-dollars per 1M → 1600 / 2 = 800 units
    expect(priceMeteredUsage({ input: 2, cachedInput: 0.5, output: 8 }, 1, cachedUsage)).toBe(800);
    expect(priceMeteredUsage({ input: 2, output: 8 }, 1, cachedUsage)).toBe(1400);
    // A cached count above the prompt (a confused upstream) is capped, never billed twice.
    expect(priceMeteredUsage({ input: 2, cachedInput: 1 }, 1, usage({ promptTokens: 10, cachedTokens: 50 }))).toBe(5);
  });

  it("keeps reasoning inside completion tokens and prices image and audio parts at their own rates", () => {
    expect(priceMeteredUsage({ output: 4 }, 1, usage({ completionTokens: 100, reasoningTokens: 60 }))).toBe(200);
    const mixed = usage({
      promptTokens: 100,
      audioInputTokens: 40,
      completionTokens: 100,
      imageOutputTokens: 30,
      audioOutputTokens: 20,
    });
    // input: 60 × 1 + 40 × 10 = 460; output: 50 × 2 + 30 × 40 + 20 × 20 = 1700; total 2160 / 2 = 1080
    expect(priceMeteredUsage({ input: 1, audioInput: 10, output: 2, imageOutput: 40, audioOutput: 20 }, 1, mixed)).toBe(
      1080,
    );
    // Without specific rates they fall back to input / output: 100 × 1 + 100 × 2 = 300 / 2
    expect(priceMeteredUsage({ input: 1, output: 2 }, 1, mixed)).toBe(150);
  });

  it("adds per_image, per_second and per_call in USD", () => {
    // 3 × $0.04 + $0.001 per call = $0.121 = 60,500 units
    expect(priceMeteredUsage({ perImage: 0.04, perCall: 0.001 }, 1, usage({ imageCount: 3 }))).toBe(60_500);
    // 8.5 s × $0.1 × 1.2 = $1.02 = 510,000 units
    expect(priceMeteredUsage({ perSecond: 0.1 }, 1.2, usage({ durationSeconds: 8.5 }))).toBe(510_000);
  });

  it("bills nothing for a model without prices and never goes negative", () => {
    expect(priceMeteredUsage({}, 1, usage({ promptTokens: 1000, completionTokens: 1000 }))).toBe(0);
    expect(priceMeteredUsage({ input: -5 }, 1, usage({ promptTokens: 1000 }))).toBe(0);
  });
});

describe("computeWorstCaseCost", () => {
  it("prices the prompt estimate at input and the output cap at output", () => {
    expect(computeWorstCaseCost({ input: 2, output: 4 }, 1, 10, 5)).toBe(20);
    expect(computeWorstCaseCost({ input: 2, output: 4 }, 1.2, 100, 1000)).toBe(2520);
  });

  it("uses the highest audio or image output price when a model has no plain output price", () => {
    expect(computeWorstCaseCost({ input: 0.5, audioOutput: 9 }, 1, 100, 1000)).toBe(4525);
    expect(computeWorstCaseCost({ input: 1, output: 2, audioOutput: 80 }, 1, 0, 1000)).toBe(1000);
  });
});

describe("parseDecimal and formatting", () => {
  it("reads numbers as the decimals they were written as", () => {
    expect(parseDecimal(0.075)).toEqual({ numerator: 75n, denominator: 1000n });
    expect(parseDecimal(1.5e-7)).toEqual({ numerator: 15n, denominator: 100000000n });
    expect(parseDecimal(2e21)).toEqual({ numerator: 2000000000000000000000n, denominator: 1n });
    expect(() => parseDecimal(Number.NaN)).toThrow(RangeError);
  });

  it("formats units as exact dollars", () => {
    expect(formatUnitsAsUsd(4200)).toBe("$0.0084");
    expect(formatUnitsAsUsd(500_000)).toBe("$1.00");
    expect(formatUnitsAsUsd(1)).toBe("$0.000002");
    expect(formatUnitsAsUsd(1_250_000)).toBe("$2.50");
  });

  it("writes the insufficient quota message", () => {
    expect(buildInsufficientQuotaMessage(4200, 1000)).toBe(
      "Insufficient quota: this request could cost up to 4200 units ($0.0084) but the token has 1000 units left. " +
        "Lower max_tokens (or max_completion_tokens / max_output_tokens) or top up the token.",
    );
  });
});
